import ArgumentParser

/// Where and as whom authctl works: the options every command takes.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help:
            "A profile of ~/.aws/config and ~/.aws/credentials (default: AWS_PROFILE, else the environment's keys, else 'default')."
    )
    var profile: String?

    @Option(help: "The AWS region (default: AWS_REGION, AWS_DEFAULT_REGION, or the profile's region).")
    var region: String?

    @Option(help: "The accounts bucket (default: IDENTITY_BUCKET).")
    var bucket: String?

    @Option(help: "CREDENTIALS_DURATION_SECONDS of the deployment: when a deletion's second pass is due.")
    var credentialsDuration: Int = 3600

    @Flag(help: "Print JSON for scripts instead of a table.")
    var json = false
}

/// Options of the commands that change something.
struct ChangeOptions: ParsableArguments {
    @Flag(help: "Do not ask for confirmation (required when standard input is not a terminal).")
    var yes = false

    @Flag(help: "Print what would change and change nothing.")
    var dryRun = false
}
