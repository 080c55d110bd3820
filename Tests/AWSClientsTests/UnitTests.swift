import CurlHTTP
import PlatformSupport
import Testing

@testable import AWSClients

@Suite struct XMLReaderTests {
    @Test func readsS3AndSTSShapes() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- comment -->
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><IsTruncated>true</IsTruncated>
              <Contents><Key>a%20b&amp;c</Key><ETag>&quot;abc&quot;</ETag></Contents>
              <Contents><Key><![CDATA[x<y>]]></Key></Contents>
              <s3:NextContinuationToken xmlns:s3="x">tok&#43;&#x2F;</s3:NextContinuationToken><Empty/>
            </ListBucketResult>
            """
        let root = try #require(XMLReader.parse(Array(xml.utf8)))
        #expect(root.name == "ListBucketResult")
        #expect(root.children("Contents").map { $0["Key"] } == ["a%20b&c", "x<y>"])
        #expect(root.children("Contents")[0]["ETag"] == "\"abc\"")
        #expect(root["NextContinuationToken"] == "tok+/")
        #expect(root["Empty"] == "")
        #expect(root["IsTruncated"] == "true")
    }

    @Test func refusesWhatItDoesNotTrust() {
        for bad in [
            "<!DOCTYPE x [<!ENTITY a \"aaaa\">]><x>&a;</x>",  // entity definitions
            "<a><b></a></b>", "<a>", "<a></a><b></b>", "<a>&unknown;</a>", "<a>&#0;</a>", "text", "",
            "<a x=\"1></a>",
            String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40),  // too deep
        ] {
            #expect(XMLReader.parse(Array(bad.utf8)) == nil, "accepted \(bad.prefix(40))")
        }
        #expect(XMLReader.parse([0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E]) == nil)  // invalid UTF-8
    }
}

@Suite struct ErrorClassificationTests {
    func response(_ status: Int, _ code: String?) -> HTTPResponse {
        let body =
            code.map {
                "<Error><Code>\($0)</Code><Message>m \u{7}x</Message><RequestId>R1</RequestId><CanonicalRequest>secret-token</CanonicalRequest></Error>"
            } ?? ""
        return HTTPResponse(status: status, headers: [], body: Array(body.utf8))
    }

    @Test func kindsAndRetries() {
        let table: [(Int, String?, AWSError.Kind, Bool)] = [
            (503, "SlowDown", .throttled, true), (400, "Throttling", .throttled, true), (429, nil, .throttled, true),
            (500, "InternalError", .unavailable, true), (502, nil, .unavailable, true), (504, nil, .unavailable, true),
            (400, "RequestTimeout", .unavailable, true), (409, "ConditionalRequestConflict", .conflict, true),
            (403, "AccessDenied", .accessDenied, false), (403, "SignatureDoesNotMatch", .accessDenied, false),
            (400, "ExpiredToken", .accessDenied, false), (404, "NoSuchBucket", .notFound, false),
            (412, "PreconditionFailed", .preconditionFailed, false),
            (400, "MalformedPolicyDocument", .invalidRequest, false),
            (409, "BucketAlreadyExists", .invalidRequest, false), (501, "NotImplemented", .other, false),
            (301, nil, .other, false),
        ]
        for (status, code, kind, retried) in table {
            let error = ErrorClassifier.describe(response(status, code))
            #expect(error.kind == kind, "\(status) \(code ?? "-")")
            let verdict = ErrorClassifier.classify(.success(response(status, code)), accept: [])
            if case .retry = verdict {
                #expect(retried, "\(status) \(code ?? "-") retried")
            } else {
                #expect(!retried, "\(status) \(code ?? "-") not retried")
            }
        }
        #expect(ErrorClassifier.describe(response(404, "NoSuchKey")).requestID == "R1")
        let nested =
            "<ErrorResponse><Errors><Error><Code>AccessDenied</Code><Message>no</Message></Error></Errors><RequestId>R2</RequestId></ErrorResponse>"
        let sts = ErrorClassifier.describe(HTTPResponse(status: 403, body: Array(nested.utf8)))
        #expect(sts.code == "AccessDenied" && sts.message == "no" && sts.requestID == "R2")
        // Only Code/Message/RequestId are read, and the message is one printable line.
        let error = ErrorClassifier.describe(response(403, "SignatureDoesNotMatch"))
        #expect(error.message == "m  x")
        #expect(!"\(error)".contains("secret-token"))
        if case .retry = ErrorClassifier.classify(.failure(HTTPError(kind: .timeout, message: "t")), accept: []) {
        } else {
            Issue.record("timeout not retried")
        }
        if case .retry = ErrorClassifier.classify(.failure(HTTPError(kind: .connection, message: "c")), accept: []) {
        } else {
            Issue.record("reset not retried")
        }
        if case .failure = ErrorClassifier.classify(.failure(HTTPError(kind: .other, message: "o")), accept: []) {
        } else {
            Issue.record("bad URL retried")
        }
    }
}

@Suite struct ConfigTests {
    func config(_ env: [String: String]) throws(ConfigurationError) -> AWSConfig {
        try AWSConfig.from(environment: { env[$0].flatMap { $0.isEmpty ? nil : $0 } })
    }

    let base = [
        "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s3cr3t-value",
        "AWS_SESSION_TOKEN": "",
    ]

    @Test func defaultsAreAWSOwnEndpoints() throws {
        let c = try config(base)
        #expect(c.region == "eu-west-1")
        #expect(c.credentials.sessionToken == nil)
        #expect(c.s3Endpoint == AWSEndpoint(scheme: "https", host: "s3.eu-west-1.amazonaws.com", pathStyle: false))
        #expect(c.stsEndpoint == AWSEndpoint(scheme: "https", host: "sts.eu-west-1.amazonaws.com"))
        var cn = base
        cn["AWS_REGION"] = "cn-north-1"
        #expect(try config(cn).stsEndpoint.host == "sts.cn-north-1.amazonaws.com.cn")
    }

    @Test func endpointOverridesAsTheSDKsReadThem() throws {
        var env = base
        env["AWS_ENDPOINT_URL"] = "http://127.0.0.1:4566/"
        env["AWS_SESSION_TOKEN"] = "TOKEN"
        var c = try config(env)
        #expect(c.credentials.sessionToken == "TOKEN")
        #expect(c.s3Endpoint == AWSEndpoint(scheme: "http", host: "127.0.0.1", port: 4566, pathStyle: true))
        #expect(c.stsEndpoint == AWSEndpoint(scheme: "http", host: "127.0.0.1", port: 4566, pathStyle: false))
        env["AWS_ENDPOINT_URL_S3"] = "https://S3.Example.com:443/base/"
        c = try config(env)
        #expect(
            c.s3Endpoint
                == AWSEndpoint(scheme: "https", host: "s3.example.com", port: 443, basePath: "/base", pathStyle: true))
        #expect(c.s3Endpoint.hostHeader == "s3.example.com")
        #expect(c.stsEndpoint.port == 4566)
        env["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"] = "true"
        #expect(try config(env).s3Endpoint.host == "s3.eu-west-1.amazonaws.com")
    }

    @Test func refusesBadConfiguration() {
        for (name, value) in [
            ("AWS_REGION", ""), ("AWS_REGION", "eu west"), ("AWS_ACCESS_KEY_ID", ""), ("AWS_SECRET_ACCESS_KEY", ""),
            ("AWS_ENDPOINT_URL", "ftp://x"), ("AWS_ENDPOINT_URL", "http://u:p@x"),
            ("AWS_ENDPOINT_URL", "http://x:99999"),
            ("AWS_ENDPOINT_URL", "http://x/?a=b"),
        ] {
            var env = base
            env[name] = value
            do {
                _ = try config(env)
                Issue.record("accepted \(name)")
            } catch {
                #expect(!error.message.contains("s3cr3t-value"))
            }
        }
    }

    /// Each refusal is a `ConfigurationError` naming the variable that was read.
    @Test func refusalsNameTheirVariable() {
        let cases: [([String: String], String)] = [
            (["AWS_REGION": ""], "AWS_REGION"), (["AWS_REGION": "Eu-West-1"], "AWS_REGION"),
            (["AWS_REGION": "", "AWS_DEFAULT_REGION": "eu west"], "AWS_DEFAULT_REGION"),
            (["AWS_ACCESS_KEY_ID": ""], "AWS_ACCESS_KEY_ID"), (["AWS_SECRET_ACCESS_KEY": ""], "AWS_SECRET_ACCESS_KEY"),
            (["AWS_ENDPOINT_URL": "ftp://x"], "AWS_ENDPOINT_URL"),
            (["AWS_ENDPOINT_URL": "http://ok:1", "AWS_ENDPOINT_URL_S3": "http://x:0"], "AWS_ENDPOINT_URL_S3"),
            (["AWS_ENDPOINT_URL_S3": "http://ok:1", "AWS_ENDPOINT_URL": "http://a_b"], "AWS_ENDPOINT_URL"),
            (["AWS_ENDPOINT_URL_STS": "http://x#f"], "AWS_ENDPOINT_URL_STS"),
        ]
        for (overrides, variable) in cases {
            var env = base
            for (k, v) in overrides { env[k] = v }
            #expect(throws: ConfigurationError.self, "\(overrides)") { try config(env) }
            do { _ = try config(env) } catch {
                #expect(error.variable == variable, "\(overrides)")
            }
        }
        var ignored = base
        ignored["AWS_ENDPOINT_URL"] = "ftp://x"
        ignored["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"] = "TRUE"
        #expect((try? config(ignored)) != nil, "ignored endpoint variables are not read")
    }

    /// The endpoint edges the shared parser (`PlatformSupport.HTTPURL`) decides for AWS_ENDPOINT_URL*.
    @Test func endpointURLEdges() throws {
        for (url, endpoint) in [
            ("http://[::1]:4566", AWSEndpoint(scheme: "http", host: "[::1]", port: 4566, pathStyle: true)),
            ("HTTP://LocalHost:4566//", AWSEndpoint(scheme: "http", host: "localhost", port: 4566, pathStyle: true)),
            ("https://h/a/b", AWSEndpoint(scheme: "https", host: "h", basePath: "/a/b", pathStyle: true)),
        ] {
            #expect(try AWSEndpoint(url: url, variable: "AWS_ENDPOINT_URL_S3", pathStyle: true) == endpoint, "\(url)")
        }
        for url in [
            "http://x?", "http://x/#", "http://x:+80", "http://x:65536", "http://x:", "http://[::1", "http://",
            "http://x/é",
            "http://x/a b", "http://my_host:4566", "http://[zz]/",
        ] {
            #expect(throws: ConfigurationError.self, "\(url)") {
                try AWSEndpoint(url: url, variable: "AWS_ENDPOINT_URL", pathStyle: false)
            }
        }
    }

    @Test func secretsStayOutOfDescriptions() {
        let creds = AWSCredentials(accessKeyID: "AKID", secretAccessKey: "SECRETVALUE", sessionToken: "TOKENVALUE")
        let temp = TemporaryCredentials(
            accessKeyID: "ASIA", secretAccessKey: "SECRETVALUE", sessionToken: "TOKENVALUE",
            expiration: "2026-01-01T00:00:00Z")
        let config = AWSConfig(region: "us-east-1", credentials: creds)
        var dumped = ""
        dump(config, to: &dumped)
        dump(temp, to: &dumped)
        for text in ["\(creds)", String(reflecting: creds), "\(temp)", String(reflecting: temp), "\(config)", dumped] {
            #expect(!text.contains("SECRETVALUE") && !text.contains("TOKENVALUE"), "\(text)")
        }
    }
}

@Suite struct ObjectKeyRuleTests {
    @Test func acceptsTheContractsKeys() {
        for key in [
            "identities/google/1234567890", "identities/apple/001234.abcdef0123456789.0123",
            "identities/google/a_b-c.d",
            "users/7f1c0d2e-0000-4000-8000-000000000001/",
            "users/7f1c0d2e-0000-4000-8000-000000000001/account/profile.json",
            "users/u/account/sessions/abc", String(repeating: "a", count: 1024),
        ] {
            #expect(ObjectKeyRule.problem(key) == nil, "\(key)")
        }
    }

    @Test func refusesEverythingElse() {
        for key in [
            "", "/users/x", "users//x", "users/./x", "users/../x", "identities/google/..", "identities/google/.", "a b",
            "a+b",
            "a%2F", "ü", "a~b", "a\\b", "a\nb", "a?b", "a#b", "a*b", String(repeating: "a", count: 1025),
        ] {
            #expect(ObjectKeyRule.problem(key) != nil, "\(key)")
        }
        #expect(ObjectKeyRule.prefixProblem("") == nil)
        #expect(ObjectKeyRule.prefixProblem("users/u/photos/") == nil)
        #expect(ObjectKeyRule.prefixProblem("users/../") != nil)
    }

    @Test func bucketNames() {
        for ok in ["signin-identities", "a.b-c", "abc", String(repeating: "b", count: 63)] {
            #expect(S3Client.bucketProblem(ok) == nil, "\(ok)")
        }
        for bad in ["ab", "Upper", "a..b", ".abc", "abc-", "a_b", String(repeating: "b", count: 64)] {
            #expect(S3Client.bucketProblem(bad) != nil, "\(bad)")
        }
    }

    @Test func assumeRoleArgumentsAreCheckedLocally() {
        let ok = AssumeRoleRequest(
            roleARN: "arn:aws:iam::123456789012:role/r", sessionName: "u-123", durationSeconds: 3600)
        #expect(ok.problem() == nil)
        var bad = ok
        bad.durationSeconds = 60
        #expect(bad.problem() != nil)
        bad = ok
        bad.sessionName = "has space"
        #expect(bad.problem() != nil)
        bad = ok
        bad.roleARN = "role"
        #expect(bad.problem() != nil)
        bad = ok
        bad.tags = Array(repeating: ("k", "v"), count: 51)
        #expect(bad.problem() != nil)
        var tagged = ok
        tagged.tags = [("a", "1"), ("b", "x y")]
        tagged.policy = "{}"
        let form = tagged.formParameters.map { "\($0.name)=\($0.value)" }
        #expect(
            form.contains("Tags.member.2.Value=x y") && form.contains("Policy={}") && form.first == "Action=AssumeRole")
        #expect(STSClient.formEncode([("a b", "x y+z/~%")]) == "a+b=x+y%2Bz%2F~%25")
    }
}
