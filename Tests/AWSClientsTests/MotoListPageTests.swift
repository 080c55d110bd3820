import CurlHTTP
import Foundation
import PlatformSupport
import Testing

@testable import AWSClients

/// `AWSCall.s3ListPage` against moto with signature checking on: a delimiter rolls each
/// "directory" up into one entry of the page however many keys it holds, and the continuation
/// token resumes after a common prefix without returning its keys again (what `check` walks
/// `users/` with).
@Suite struct MotoListPageTests {
    let deadline = Deadline.after(milliseconds: 20_000)

    @Test func aDelimitedListingPagesThroughPrefixesNotTheKeysBelowThem() throws {
        let env = try Moto.env()
        let http = try HTTPClient()
        let config = try Moto.config()
        let batch = AWSBatch(
            s3: S3Client(http: http, config: config, bucket: env.bucket), sts: STSClient(http: http, config: config))
        let root = uniquePrefix("delimited")
        var puts = [AWSCall.s3Put(S3Put(key: root + "loose.txt", body: [], contentType: "text/plain"))]
        for account in ["a", "b", "c"] {
            for n in 0..<4 {
                puts.append(
                    .s3Put(S3Put(key: root + "\(account)/photos/\(n).jpg", body: bytes("x"), contentType: "image/jpeg"))
                )
            }
        }
        for r in batch.run(puts, deadline: deadline) {
            guard case .success(.stored(.stored)) = r else {
                Issue.record("put: \(r)")
                return
            }
        }
        var prefixes: [String] = [], keys: [String] = [], token: String?, pages = 0
        repeat {
            let answer = batch.run(
                [.s3ListPage(S3ListRequest(prefix: root, delimiter: "/", continuationToken: token, pageSize: 2))],
                deadline: deadline)[0]
            guard case .success(.listing(let page)) = answer else {
                Issue.record("list: \(answer)")
                return
            }
            pages += 1
            #expect(page.keys.count + page.commonPrefixes.count <= 2, "a page holds at most pageSize entries")
            prefixes += page.commonPrefixes
            keys += page.keys
            token = page.isTruncated ? page.continuationToken : nil
        } while token != nil && pages < 10
        #expect(prefixes == ["a/", "b/", "c/"].map { root + $0 } && keys == [root + "loose.txt"])
        #expect(pages == 2, "4 entries, 2 a page: the 12 photos below them cost nothing")
    }
}
