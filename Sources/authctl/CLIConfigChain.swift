import PlatformSupport

/// Credentials, region and endpoints resolved in the AWS CLI's (v2) order, for what authctl
/// supports (docs/operations.md, "Setting up"; the sources followed are in
/// docs/decisions/operator.md, "Credentials in the AWS CLI's order"):
/// - the profile: `--profile`, else `AWS_PROFILE`, else `AWS_DEFAULT_PROFILE`, else `default`;
///   a named profile must exist;
/// - credentials, the first source that has them: the environment's keys (skipped only when
///   `--profile` is given), then the profile's chain: an assumed role (`role_arn`), web identity,
///   IAM Identity Center (`sso_account_id`/`sso_role_name`), the credentials file's keys, `login_session`,
///   `credential_process`, the config file's keys, then the container and instance metadata.
///   Keys are supported; a source before them that is not is refused by name (never skipped:
///   the CLI would not skip it either); a source after them is never reached;
/// - the region: `--region`, `AWS_REGION`, `AWS_DEFAULT_REGION`, then the profile's `region`;
/// - each endpoint: `AWS_ENDPOINT_URL_<SERVICE>`, `AWS_ENDPOINT_URL`, the profile's `services`
///   section, then its `endpoint_url`, unless `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` (or the
///   profile's `ignore_configured_endpoint_urls`) is true.
struct CLIConfigChain {
    /// The variables `AWSConfig.from(environment:)` reads, filled from where they were found.
    var variables: [String: String] = [:]
    /// Where the credentials and the region came from (for `whoami`; never a value).
    var credentialsSource = ""
    var regionSource = ""
    var profile = "default"

    init(
        profile explicit: String?, region: String?, environment env: (String) -> String?, files: SharedConfigFiles
    ) throws(ConfigurationError) {
        let named = explicit ?? env("AWS_PROFILE") ?? env("AWS_DEFAULT_PROFILE")
        profile = named ?? "default"
        if named != nil, !files.hasProfile(profile) {
            throw ConfigurationError(
                variable: "profile \(profile)", message: "is not in ~/.aws/config or ~/.aws/credentials")
        }
        let scoped = files.scoped(profile)
        try resolveCredentials(explicitProfile: explicit != nil, env: env, files: files, scoped: scoped)
        let regions: [(String?, String)] = [
            (region, "--region"), (env("AWS_REGION"), "AWS_REGION"), (env("AWS_DEFAULT_REGION"), "AWS_DEFAULT_REGION"),
            (scoped["region"], "profile \(profile)"),
        ]
        if let (value, source) = regions.first(where: { $0.0 != nil }) {
            variables["AWS_REGION"] = value
            regionSource = source
        }
        let ignore =
            (env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS") ?? scoped["ignore_configured_endpoint_urls"])?
            .lowercasedASCII() == "true"
        guard !ignore else { return }
        let services = scoped["services"].flatMap { files.services[$0] } ?? [:]
        for service in ["s3", "sts", "ssm"] {  // ssm: apple-transfer's --key-parameter
            let variable = "AWS_ENDPOINT_URL_" + service.uppercased()
            let url =
                env(variable) ?? env("AWS_ENDPOINT_URL") ?? services[service + ".endpoint_url"]
                ?? scoped["endpoint_url"]
            if let url, !url.isEmpty { variables[variable] = url }
        }
    }

    private mutating func resolveCredentials(
        explicitProfile: Bool, env: (String) -> String?, files: SharedConfigFiles, scoped: [String: String]
    ) throws(ConfigurationError) {
        // botocore's EnvProvider: present unless a profile was given explicitly (create_credential_resolver).
        if !explicitProfile, let id = env("AWS_ACCESS_KEY_ID") {
            try useKeys(
                id: id, secret: env("AWS_SECRET_ACCESS_KEY"),
                token: env("AWS_SECURITY_TOKEN") ?? env("AWS_SESSION_TOKEN"),
                source: "environment", missing: "AWS_SECRET_ACCESS_KEY")
            return
        }
        func refuse(_ setting: String, _ what: String) -> ConfigurationError {
            ConfigurationError(
                variable: "profile \(profile)",
                message:
                    "gets its credentials from \(setting) (\(what)), which authctl does not support; export them first: eval \"$(aws configure export-credentials --profile \(profile) --format env)\""
            )
        }
        if scoped["role_arn"] != nil, scoped["web_identity_token_file"] == nil {
            throw refuse("role_arn", "an assumed role")
        }
        if scoped["web_identity_token_file"] != nil || (!explicitProfile && env("AWS_WEB_IDENTITY_TOKEN_FILE") != nil) {
            throw refuse("web_identity_token_file", "web identity")
        }
        if scoped["sso_account_id"] != nil || scoped["sso_role_name"] != nil {
            throw refuse("sso_account_id/sso_role_name", "IAM Identity Center")
        }
        let sources: [([String: String]?, String)] = [
            (files.credentials[profile], "credentials file"), (nil, "login_session"), (nil, "credential_process"),
            (files.config[profile], "config file"),
        ]
        for (section, name) in sources {
            if section == nil, scoped[name] != nil { throw refuse(name, "a credential helper") }
            guard let section, let id = section["aws_access_key_id"], !id.isEmpty else { continue }
            try useKeys(
                id: id, secret: section["aws_secret_access_key"],
                token: section["aws_security_token"] ?? section["aws_session_token"],
                source: "profile \(profile) (\(name))", missing: "aws_secret_access_key")
            return
        }
        if env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") != nil || env("AWS_CONTAINER_CREDENTIALS_FULL_URI") != nil {
            throw ConfigurationError(
                variable: "AWS_CONTAINER_CREDENTIALS_*", message: "container credentials are not supported by authctl")
        }
        throw ConfigurationError(
            variable: "credentials",
            message:
                "none found (environment, profile \(profile)); instance metadata is not supported: set AWS_ACCESS_KEY_ID or use a profile with keys"
        )
    }

    private mutating func useKeys(
        id: String, secret: String?, token: String?, source: String, missing: String
    ) throws(ConfigurationError) {
        guard let secret, !secret.isEmpty else {
            throw ConfigurationError(variable: missing, message: "is missing beside the access key id (\(source))")
        }
        variables["AWS_ACCESS_KEY_ID"] = id
        variables["AWS_SECRET_ACCESS_KEY"] = secret
        if let token, !token.isEmpty { variables["AWS_SESSION_TOKEN"] = token }
        credentialsSource = source
    }
}
