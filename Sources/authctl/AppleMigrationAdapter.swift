import AccountModel
import AccountStore
import AccountTransfer
import PlatformSupport
import SignInWithApple

/// `AppleMigrationClient` as the account domain's transfer runs see Apple.
final class AppleMigrationAdapter: UserMigrationService {
    let client: AppleMigrationClient

    init(_ client: AppleMigrationClient) { self.client = client }

    func transferSubs(_ subs: [String], target: String, deadline: Deadline) -> [UserMigrationAnswer<String>] {
        client.transferSubs(subs, target: target, deadline: deadline).map(Self.answer)
    }

    func exchange(_ transferSubs: [String], deadline: Deadline) -> [UserMigrationAnswer<MigratedUser>] {
        client.exchange(transferSubs, deadline: deadline).map { answer in
            switch answer {
            case .value(let u):
                return .value(MigratedUser(sub: u.sub, email: u.email, isPrivateEmail: u.isPrivateEmail))
            case .refused(let why): return .refused(why)
            case .unavailable(let why): return .unavailable(why)
            }
        }
    }

    private static func answer(_ a: AppleMigrationAnswer<String>) -> UserMigrationAnswer<String> {
        switch a {
        case .value(let v): return .value(v)
        case .refused(let why): return .refused(why)
        case .unavailable(let why): return .unavailable(why)
        }
    }
}
