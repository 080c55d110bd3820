"""The purge against every key a user can write (issue 23, defect 1; docs/API.md, auth-link `delete`):
a property test over generated keys, written with the user's own STS credentials through moto
(signatures checked, versioned bucket), then the real auth-link's `delete`. Whatever the keys
hold, the purge leaves nothing under the account: no version, no delete marker, no unfinished
multipart upload, and the deletion record counts no key it could not remove.

The keys mix what broke or could break the purge: `.` and `..` segments (curl removed them, so a
one-by-one delete or an abort no longer matched its signature: 403, and no purge ever finished),
`//`, a trailing `/`, control characters (XML cannot carry some: they go one by one), NFC and NFD
forms of one name (two keys to S3), `%`, `+`, spaces, and keys of exactly 1,024 bytes; some get a
noncurrent version or a delete marker, and unfinished multipart uploads are started under such
keys. Bounded: a fixed set of seeds, a few dozen keys each. moto cannot take a key holding LF (its
routing stops at the decoded newline: 404), nor start an upload under a key holding a character
XML cannot carry (its answer writes the key raw: 500), so those are left to the unit tests
(DeletionRacesTests, over S3XMLRules).

Refresh tokens and credentials are secrets: assertions carry their own messages.
PYTEST_DONT_REWRITE."""
import random

import pytest

from service_support import ok
from test_deletion import signup

SEEDS = (1, 2, 3)
KEYS_PER_SEED = 24
UPLOADS_PER_SEED = 5

PIECES = ["..", ".", "", "photos", "a b", "p%41q", "x+y", "%2F", "%", "caf\u00e9", "cafe\u0301", "\u65e5\u672c",
          "ctl\x01", "esc\x1b", "del\x7f", "cr\r", "tab\t", "~tilde", "semi;colon", "q?mark", "hash#", "amp&<>'\""]


def generated_keys(rng: random.Random, prefix: str) -> list[str]:
    """Keys under `prefix`; the first ones are the issue's own, then random joins of PIECES."""
    keys = [prefix + "photos/../video.mov", prefix + "photos/ctl\x01/../x.jpg", prefix + "./a", prefix + "..",
            prefix + "photos//double.jpg", prefix + "photos/trailing/"]
    while len(keys) < KEYS_PER_SEED - 2:
        segments = [rng.choice(PIECES) for _ in range(rng.randint(1, 5))]
        key = prefix + "/".join(segments) + rng.choice(["", "/", ".jpg", "/.."])
        if key != prefix:
            keys.append(key)
    # Exactly 1,024 bytes (S3's limit), one plain and one ending in a dot segment.
    for tail in ("", "/.."):
        body = prefix + "long/"
        keys.append(body + "n" * (1024 - len(body.encode()) - len(tail)) + tail)
    return keys


def xml_can_carry(key: str) -> bool:
    return all(c in "\t\r\n" or ord(c) >= 0x20 for c in key)


def user_client(svc, data: dict):
    c = data["credentials"]
    return svc.moto.client("s3", c["accessKeyId"], c["secretAccessKey"], c["sessionToken"])


def raw_listing(s3, operation: str, **kwargs) -> bytes:
    """The listing's XML as moto sent it (botocore cannot parse moto's answer when a key holds a
    character XML cannot carry: moto writes keys raw)."""
    captured = {}

    def keep(response_dict, **_):
        captured["body"] = response_dict["body"]

    event = f"before-parse.s3.{operation}"
    s3.meta.events.register(event, keep)
    try:
        getattr(s3, {"ListObjectVersions": "list_object_versions", "ListMultipartUploads": "list_multipart_uploads"}[
            operation])(**kwargs)
    except Exception:  # noqa: BLE001 (the parse of such keys fails; the raw body is what is checked)
        pass
    finally:
        s3.meta.events.unregister(event, keep)
    return captured.get("body", b"")


@pytest.mark.parametrize("seed", SEEDS)
def test_the_purge_leaves_nothing_whatever_the_keys_hold(svc, seed):
    rng = random.Random(seed)
    _, data = signup(svc)
    uuid = data["user"]["serviceUserID"]
    prefix = data["storage"]["prefix"]
    user = user_client(svc, data)
    bucket = svc.moto.bucket
    keys = generated_keys(rng, prefix)
    for n, key in enumerate(keys):
        user.put_object(Bucket=bucket, Key=key, Body=b"v1")
        if n % 3 == 0:
            user.put_object(Bucket=bucket, Key=key, Body=b"v2")  # a noncurrent version
        if n % 5 == 0:
            user.delete_object(Bucket=bucket, Key=key)  # a delete marker
    # The issue's own upload first (`..`: aborted by its path), then random ones.
    uploads = keys[:1] + rng.sample([k for k in keys[1:] if xml_can_carry(k)], UPLOADS_PER_SEED - 1)
    for key in uploads:
        user.create_multipart_upload(Bucket=bucket, Key=key)
    admin = svc.moto.s3()
    versions = raw_listing(admin, "ListObjectVersions", Bucket=bucket, Prefix=prefix)
    assert versions.count(b"<Version>") >= len(set(keys)) - len(keys) // 5, "set-up: the writes did not land"
    assert raw_listing(admin, "ListMultipartUploads", Bucket=bucket, Prefix=prefix).count(b"<Upload>") == \
        UPLOADS_PER_SEED, "set-up: the uploads did not start"

    answer = ok(svc.link(refreshToken=data["refreshToken"], action="delete"))
    record = svc.read_json(f"deletions/{uuid}.json")
    assert (answer["purge"], record["purge"].get("keysFailed")) == ("complete", 0), \
        f"seed {seed}: purge {answer['purge']}, keysFailed {record['purge'].get('keysFailed')}"
    left = raw_listing(admin, "ListObjectVersions", Bucket=bucket, Prefix=prefix)
    assert b"<Version>" not in left and b"<DeleteMarker>" not in left, \
        f"seed {seed}: {left.count(b'<Version>')} versions and {left.count(b'<DeleteMarker>')} markers left"
    pending = raw_listing(admin, "ListMultipartUploads", Bucket=bucket, Prefix=prefix)
    assert b"<Upload>" not in pending, f"seed {seed}: {pending.count(b'<Upload>')} unfinished uploads left"
    assert not any(k in str(record) for k in ("photos", "caf", "long/")), "the deletion record names keys"
