"""moto_server with S3 object writes made atomic.

moto checks `If-None-Match` / `If-Match` and then writes, in two steps, under a threaded
server: two concurrent conditional PUTs of one key can both pass the check. Real S3 decides
conditional writes atomically, and the race tests (concurrent sign-ups, links, refreshes) rely
on exactly that. One process-wide lock around moto's PutObject and DeleteObject handlers
restores the S3 behaviour; nothing else about moto changes (signature checking included).
Requests other than object writes still run concurrently.
"""
import sys
import threading

from moto import server
from moto.s3.responses import S3Response

_lock = threading.Lock()


def _atomic(method):
    def wrapper(self, *args, **kwargs):
        with _lock:
            return method(self, *args, **kwargs)

    wrapper.__name__ = method.__name__
    return wrapper


for _name in ("put_object", "delete_object"):
    setattr(S3Response, _name, _atomic(getattr(S3Response, _name)))

if __name__ == "__main__":
    server.main(sys.argv[1:])
