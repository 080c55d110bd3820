/// What a function implements: bytes in, bytes out. Throwing reports the invocation as failed
/// through the Runtime API's error endpoint (Lambda counts it as a function error), so handlers
/// throw only for failures they cannot classify; expected failures belong in their own answer.
package protocol LambdaHandler: AnyObject {
    func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8]
}
