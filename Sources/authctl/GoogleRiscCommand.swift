import AWSClients
import ArgumentParser
import CurlHTTP
import PlatformSupport
import StrictJSON

/// Google's Cross-Account Protection (contract v4, "Google's security events"): registering
/// auth-link's Function URL as the receiver of the project's security-event stream.
struct GoogleRiscCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "google-risc", abstract: "Google's Cross-Account Protection (security events).",
        subcommands: [RegisterCommand.self])

    struct RegisterCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "register",
            abstract:
                "Register auth-link's Function URL as the receiver of Google's security events (stream:update), then have Google send it a verification event (stream:verify).",
            discussion: """
                The key file is the JSON key of a service account of the project that owns the app's \
                Google OAuth client ids, with the RISC Configuration Admin role (roles/riscconfigs.admin), \
                the RISC API enabled. The verification event carries --state back: look for it in \
                auth-link's log (docs/operations.md, "Google's security events").
                """)
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var change: ChangeOptions
        @Option(help: "The service account's JSON key file.") var keyFile: String
        @Option(help: "auth-link's Function URL: https (http only to a loopback host, for tests).")
        var receiverURL: String
        @Option(help: "What Google's verification event carries back (default: a fresh text).") var state: String?
        @Option(help: "The RISC management API (default: https://risc.googleapis.com; http only to a loopback host).")
        var endpoint: String?
        @Option(help: "Why (the change ticket), for the audit line.") var reason: String?

        func run() throws {
            do throws(ConfigurationError) {
                _ = try HTTPURL.httpsOrLoopback(
                    receiverURL, variable: "--receiver-url", allowingQueryAndFragment: false)
                if let endpoint {
                    _ = try HTTPURL.httpsOrLoopback(endpoint, variable: "--endpoint", allowingQueryAndFragment: false)
                }
            } catch { throw ValidationError("\(error)") }
            let key: ServiceAccountKey
            do throws(ServiceAccountKey.Problem) { key = try ServiceAccountKey(path: keyFile) } catch {
                throw ValidationError("\(error)")
            }
            let context = try Console.connect(connection)
            let caller = try Console.caller(context)
            let state =
                self.state
                ?? "authctl \(ISO8601.format(milliseconds: Clock.nowMilliseconds())) \(Hex.encode(SecureRandom.bytes(4)))"
            let details: [(String, JSONValue)] = [
                ("receiverURL", .string(receiverURL)), ("serviceAccount", .string(key.clientEmail)),
                ("state", .string(state)),
            ]
            let trail = AuditTrail(
                caller: caller, action: "google-risc-register", reason: reason, dryRun: change.dryRun)
            if change.dryRun {
                try trail.read("would register and verify", details)
                return report(context, registered: false, delivered: [], state: state)
            }
            try Terminal.confirm(
                "Register \(receiverURL) as the receiver of Google's security events for \(key.clientEmail)'s project?",
                yes: change.yes)
            let http: HTTPClient
            do throws(HTTPError) { http = try HTTPClient() } catch { throw ValidationError("libcurl: \(error)") }
            let client = RiscManagementClient(
                http: http, endpoint: endpoint ?? RiscManagementClient.defaultEndpoint, key: key)
            try trail.intent("register the receiver with Google (stream:update), then stream:verify", details)
            let stream: JSONObject
            do throws(RiscManagementClient.Failure) { stream = try client.update(receiver: receiverURL) } catch {
                trail.outcome("failed: nothing registered (\(error))", details)
                Terminal.err("authctl: \(error)")
                throw ExitCode(ExitStatus.failed)
            }
            let delivered = (stream["events_delivered"]?.arrayValue ?? []).compactMap(\.stringValue)
            do throws(RiscManagementClient.Failure) { try client.verify(state: state) } catch {
                trail.outcome("failed: registered, verification not requested (\(error))", details)
                Terminal.err("authctl: the stream is registered, but \(error)")
                throw ExitCode(ExitStatus.failed)
            }
            trail.outcome(
                "done: registered, verification requested",
                details + [("eventsDelivered", .int(Int64(delivered.count)))])
            report(context, registered: true, delivered: delivered, state: state)
            try trail.finish()
        }

        func report(_ context: OperatorContext, registered: Bool, delivered: [String], state: String) {
            if context.json {
                Console.printJSON(
                    .object(
                        JSONObject([
                            ("receiverURL", .string(receiverURL)), ("registered", .bool(registered)),
                            ("eventsDelivered", .array(delivered.map(JSONValue.string))), ("state", .string(state)),
                            ("dryRun", .bool(change.dryRun)),
                        ])))
                return
            }
            guard registered else {
                Terminal.out(
                    "dry run: would register \(receiverURL) and request a verification event carrying '\(state)'")
                return
            }
            let missing = RiscManagementClient.eventTypes.filter { !delivered.contains($0) }
            Terminal.out(
                "registered \(receiverURL): Google delivers \(delivered.count) of \(RiscManagementClient.eventTypes.count) event types"
            )
            for type in missing { Terminal.out("  not delivered: \(type)") }
            Terminal.out("verification requested: auth-link's log shows state '\(state)' when it arrives")
        }
    }
}
