import AWSClients
import AccountModel
import AccountStore
import PlatformSupport
import StrictJSON

/// How `check` reads the bucket: listings a page at a time (a listing that cannot finish says so
/// and stops; nothing is judged from its silence), and deletion records with what the purge left.
extension StoreCheck {
    /// Lists `prefix` (rolled up at `delimiter` when given) a page at a time, handing each page to
    /// `body`. False, with the reason in `report.unchecked`, when the listing could not finish.
    package func walkListing(
        _ prefix: String, delimiter: String? = nil, _ options: StoreCheckOptions, _ report: inout StoreCheckReport,
        deadline: Deadline, progress: (String) -> Void, body: (S3Listing, inout StoreCheckReport) -> Void
    ) -> Bool {
        var token: String?
        for page in 1...options.maxPages {
            var round = Round()
            let slot = round.listPage(
                S3ListRequest(
                    prefix: prefix, delimiter: delimiter, continuationToken: token, pageSize: options.pageSize))
            let listing: S3Listing
            do throws(AccountError) { listing = try store.backend.run(round, deadline: deadline).value(slot) } catch {
                report.noteUnchecked("listing \(prefix) failed at page \(page): \(error.brief)")
                return false
            }
            report.pages += 1
            progress("listing \(prefix) page \(page)")
            body(listing, &report)
            guard listing.isTruncated else { return true }
            guard let next = listing.continuationToken else {
                report.noteUnchecked("listing \(prefix) was truncated without a continuation token")
                return false
            }
            token = next
        }
        report.noteUnchecked("listing \(prefix) stopped at the page limit (\(options.maxPages) pages)")
        return false
    }

    /// A deletion record with its ETag and `purge.keysFailed`, or why it is unreadable.
    package func storedDeletion(
        _ object: S3Object?, key: String
    ) -> StoredDocument<(DeletionRecord, etag: String, keysFailed: Int)> {
        guard let object else { return .absent }
        let json: JSONValue
        do throws(JSONError) { json = try JSONParser.parse(object.body) } catch {
            return .unreadable(error.description)
        }
        guard let record = DeletionRecord(json: json) else { return .unreadable("not a deletion record") }
        guard AccountKeys.deletion(record.serviceUserID) == key else {
            return .unreadable("the record names another account")
        }
        return .present((record, object.etag, DeletionRecord.keysFailed(in: json)))
    }
}
