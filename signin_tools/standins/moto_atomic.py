"""moto_server with S3 object writes made atomic.

moto checks `If-None-Match` / `If-Match` and then writes, in two steps, under a threaded
server: two concurrent conditional PUTs of one key can both pass the check. Real S3 decides
conditional writes atomically, and the race tests (concurrent sign-ups, links, refreshes) rely
on exactly that. One process-wide lock around moto's PutObject and DeleteObject handlers
restores the S3 behaviour; nothing else about moto changes (signature checking included).
Requests other than object writes still run concurrently.

Also, ListObjectVersions: moto deep-copies every version of every key in the bucket before it
filters by prefix, so each account deletion (a listing of `users/<uuid>/`) cost time growing with
the whole bucket (over a second after a few thousand sign-ups: the soak's latency drifted with
moto, not the function). Here the keys are filtered by the request's prefix before that copy;
the answer is the same (moto drops keys outside the prefix afterwards anyway).

And DeleteObjects is authorized per key against the caller's IAM policy, as S3 does (moto_iam.py),
and connections are kept alive, as S3's and STS's are (moto_keepalive.py).
"""
import sys
from pathlib import Path
import threading

import inspect

from moto import server
from moto.s3.models import S3Backend
from moto.s3.responses import S3Response
from moto.s3.utils import _VersionedKeyStore

_lock = threading.Lock()


def _atomic(method):
    def wrapper(self, *args, **kwargs):
        with _lock:
            return method(self, *args, **kwargs)

    wrapper.__name__ = method.__name__
    return wrapper


for _name in ("put_object", "delete_object"):
    setattr(S3Response, _name, _atomic(getattr(S3Response, _name)))

_listing = threading.local()
_iterlists = _VersionedKeyStore.iterlists
_list_object_versions = S3Backend.list_object_versions
_versions_signature = inspect.signature(_list_object_versions)


def _iterlists_in_prefix(self):
    prefix = getattr(_listing, "prefix", None)
    for key, versions in _iterlists(self):
        if not prefix or key.startswith(prefix):
            yield key, versions


def _list_object_versions_in_prefix(self, *args, **kwargs):
    bound = _versions_signature.bind(self, *args, **kwargs)
    _listing.prefix = bound.arguments.get("prefix") or None
    try:
        return _list_object_versions(self, *args, **kwargs)
    finally:
        _listing.prefix = None


_VersionedKeyStore.iterlists = _iterlists_in_prefix
S3Backend.list_object_versions = _list_object_versions_in_prefix

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    import moto_iam  # noqa: E402 (run as a script: its siblings, not the package)
    import moto_keepalive  # noqa: E402

    moto_iam.install()
    moto_keepalive.install()
    server.main(sys.argv[1:])
