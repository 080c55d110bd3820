"""moto's S3 DeleteObjects, checked against the caller's own IAM policy per key, as S3 does.

moto authorizes a DeleteObjects request once, as s3:DeleteObject on the bucket's ARN; when that
is refused it deletes anyway, consulting only the bucket policy per key. So a function whose
role may delete only under users/<uuid>/ could delete any key in a batch, and a missing
s3:DeleteObjectVersion would go unseen. S3 evaluates each key: s3:DeleteObject for a key without
a version id, s3:DeleteObjectVersion with one, each against `arn:aws:s3:::bucket/key`, and
answers a refused key as an AccessDenied error inside the 200 answer. This does the same with
moto's own policy evaluation (the caller's user policies, the role's for assumed-role keys).
"""
import threading

import xmltodict
from moto import settings
from moto.core.authorization import ActionAuthenticatorMixin
from moto.iam.access_control import PermissionResult, S3IAMRequest
from moto.s3.exceptions import BucketAccessDeniedError, S3AccessDeniedError
from moto.s3.models import FakeBucket
from moto.s3.responses import S3Response

_refused = threading.local()
_delete_keys = S3Response._bucket_response_delete_keys
_get_permission = FakeBucket.get_permission


def _refused_keys(response: S3Response, bucket_name: str) -> set[str]:
    objects = xmltodict.parse(response.body, strip_whitespace=False)["Delete"].get("Object", [])
    refused = set()
    for obj in objects if isinstance(objects, list) else [objects]:
        action = "DeleteObjectVersion" if obj.get("VersionId") else "DeleteObject"
        request = S3IAMRequest(account_id=response.current_account, method=response.method, path=response.path,
                               data=response.data, body=response.raw_body, headers=response.headers, action=action)
        try:
            request.check_action_permitted(f"arn:aws:s3:::{bucket_name}/{obj['Key']}")
        except (BucketAccessDeniedError, S3AccessDeniedError):
            refused.add(obj["Key"])
    return refused


def _delete_keys_per_key(self, bucket_name, authenticated=True):
    if ActionAuthenticatorMixin.request_count < settings.INITIAL_NO_AUTH_ACTION_COUNT:
        return _delete_keys(self, bucket_name, authenticated)
    _refused.keys = _refused_keys(self, bucket_name)
    try:
        return _delete_keys(self, bucket_name, True)
    finally:
        _refused.keys = None


def _get_permission_per_key(self, action, resource):
    keys = getattr(_refused, "keys", None)
    if keys and resource.split("/", 1)[-1] in keys and resource.startswith(f"arn:aws:s3:::{self.name}/"):
        return PermissionResult.DENIED
    return _get_permission(self, action, resource)


def install() -> None:
    S3Response._bucket_response_delete_keys = _delete_keys_per_key
    FakeBucket.get_permission = _get_permission_per_key
