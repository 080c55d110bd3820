// Every account module, for the account tests: a test target imports this one module and reaches
// what the modules share with `package`, as the functions and authctl do (no `@testable`).
@_exported import AccountDeletion
@_exported import AccountEvents
@_exported import AccountLinks
@_exported import AccountModel
@_exported import AccountOperator
@_exported import AccountPurchases
@_exported import AccountSessions
@_exported import AccountSignIn
@_exported import AccountStore
@_exported import AccountSuspensions
@_exported import AccountTransfer
@_exported import PurchaseModel
