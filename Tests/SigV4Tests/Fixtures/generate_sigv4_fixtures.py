#!/usr/bin/env python3
"""Writes sigv4_cases.json beside this file: requests signed by botocore's own SigV4 signers
(S3SigV4Auth for s3, SigV4Auth for everything else) at a fixed time, with the canonical request,
string to sign, signature and Authorization header botocore produced. The Swift tests feed the
same inputs to SigV4Signer and compare byte for byte.

    .venv/bin/python Tests/SigV4Tests/Fixtures/generate_sigv4_fixtures.py

Object keys are put on the URL the way botocore's rest-xml serializer does for `{Key+}`
(percent_encode(key, safe='/~')), query strings the way prepare_request_dict does
(percent_encode_sequence). The Swift side gets the raw key and the raw query pairs.
"""
import base64
import datetime
import json
import os
from unittest import mock

import botocore
from botocore import auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.utils import percent_encode, percent_encode_sequence

FIXED = datetime.datetime(2026, 11, 22, 11, 9, 50)
FIXED_MS = 1795345790000  # the same instant, for the Swift side
assert int(FIXED.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000) == FIXED_MS

KEY_ID = "AKIDEXAMPLE"
SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
TOKEN = "IQoJb3JpZ2luX2VjEXAMPLE//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+token/with=chars"

VHOST = "https://signin-identities.s3.us-east-1.amazonaws.com"
PATHSTYLE = "http://127.0.0.1:5000"

CASES = [
    # name, service, region, method, base url, bucket-in-path, key or path, query pairs, headers, body, token
    dict(name="s3-get-simple", service="s3", method="GET", base=VHOST, key="users/7f1c0d2e-0000-4000-8000-000000000001/account/profile.json"),
    dict(name="s3-put-spaces-metadata", service="s3", method="PUT", base=VHOST, key="photos/my summer  photo.jpg",
         headers=[("Content-Type", "image/jpeg"), ("x-amz-meta-note", "  two   spaces  inside "), ("If-None-Match", "*")], body=b"\x00\x01binary\xff"),
    dict(name="s3-key-plus-equals-amp", service="s3", method="GET", base=VHOST, key="a+b=c&d;e,f:g@h$i.txt"),
    dict(name="s3-key-tilde-percent", service="s3", method="GET", base=VHOST, key="odd/100%~done%2F(x)!*'"),
    dict(name="s3-key-unicode", service="s3", method="PUT", base=VHOST, key="users/ü/日本語/🙂 x.txt",
         headers=[("Content-Type", "text/plain; charset=utf-8")], body="héllo wörld".encode()),
    dict(name="s3-key-double-slash-dots", service="s3", method="GET", base=VHOST, key="a//b/./c/../d/"),
    dict(name="s3-list-query", service="s3", method="GET", base=VHOST, key="",
         query=[("list-type", "2"), ("prefix", "users/ü x+y/"), ("continuation-token", "1/abc+def=="), ("encoding-type", "url"), ("max-keys", "2")]),
    dict(name="s3-put-if-match-session-token", service="s3", method="PUT", base=VHOST, key="users/u1/account/providers.json",
         headers=[("Content-Type", "application/json"), ("If-Match", '"9b2cf535f27731c974343645a3985328"')], body=b'{"version":1}', token=True),
    dict(name="s3-path-style-port", service="s3", method="HEAD", base=PATHSTYLE, bucket="signin-identities-local", key="identities/google/1234 5"),
    dict(name="s3-delete-path-style", service="s3", method="DELETE", base=PATHSTYLE, bucket="signin-identities-local", key="users/u1/photos/~tmp", token=True),
    dict(name="s3-eu-region-empty-put", service="s3", region="eu-west-1", method="PUT", base="https://b.s3.eu-west-1.amazonaws.com",
         key="users/u1/", headers=[("Content-Type", "application/x-directory")], body=b""),
    dict(name="sts-assume-role", service="sts", method="POST", base="https://sts.us-east-1.amazonaws.com", path="/",
         headers=[("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")],
         form=[("Action", "AssumeRole"), ("Version", "2011-06-15"), ("RoleArn", "arn:aws:iam::123456789012:role/signin-user-access"),
               ("RoleSessionName", "u-7f1c0d2e"), ("DurationSeconds", "3600"),
               ("Policy", '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject"],"Resource":["arn:aws:s3:::b/users/u1/photos/*"]}]}'),
               ("SourceIdentity", "user@example.com"), ("Tags.member.1.Key", "uuid"), ("Tags.member.1.Value", "7f1c 0d2e")]),
    dict(name="sts-assume-role-session-token", service="sts", region="eu-west-1", method="POST", base="http://127.0.0.1:5000", path="/",
         headers=[("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")],
         form=[("Action", "AssumeRole"), ("Version", "2011-06-15"), ("RoleArn", "arn:aws:iam::123456789012:role/r"), ("RoleSessionName", "s")], token=True),
    dict(name="sts-get-normalized-path", service="sts", method="GET", base="https://sts.us-east-1.amazonaws.com",
         path="/a//b/./c/../d%20e/%C3%BC/", query=[("Version", "2011-06-15"), ("Action", "GetCallerIdentity")]),
    dict(name="sts-get-dotdot-root", service="sts", method="GET", base="https://sts.us-east-1.amazonaws.com", path="/../x/..",
         query=[("b", "2"), ("a", "z"), ("a", "y"), ("empty", "")]),
]


def build(case):
    region = case.get("region", "us-east-1")
    service = case["service"]
    headers = list(case.get("headers", []))
    if service == "s3":
        path = ("/" + case["bucket"] if "bucket" in case else "") + "/" + percent_encode(case["key"], safe="/~")
        body = case.get("body", b"")
    else:
        path = case["path"]
        body = percent_encode_sequence(case["form"]).encode() if "form" in case else case.get("body", b"")
    url = case["base"] + path
    if case.get("query"):
        url += "?" + percent_encode_sequence(case["query"])
    creds = Credentials(KEY_ID, SECRET, TOKEN if case.get("token") else None)
    signer = (auth.S3SigV4Auth if service == "s3" else auth.SigV4Auth)(creds, service, region)
    request = AWSRequest(method=case["method"], url=url, headers=dict(headers), data=body)
    seen = {}
    canonical_request, string_to_sign_of = signer.canonical_request, signer.string_to_sign

    def record_canonical(req):
        seen["canonical"] = canonical_request(req)
        return seen["canonical"]

    def record_string_to_sign(req, canonical):
        seen["sts"] = string_to_sign_of(req, canonical)
        return seen["sts"]

    # Record what add_auth itself computed (afterwards the request carries Authorization).
    signer.canonical_request, signer.string_to_sign = record_canonical, record_string_to_sign
    with mock.patch.object(auth, "get_current_datetime", return_value=FIXED):
        signer.add_auth(request)
    canonical, string_to_sign = seen["canonical"], seen["sts"]
    host = auth._host_from_url(url)
    added = {name: request.headers[name] for name in ("X-Amz-Date", "X-Amz-Content-SHA256", "X-Amz-Security-Token") if name in request.headers}
    return {
        "name": case["name"],
        "service": service,
        "region": region,
        "method": case["method"],
        "host": host,
        "key": case.get("key"),
        "bucketInPath": case.get("bucket"),
        "wirePath": path,
        "query": [[k, v] for k, v in case.get("query", [])],
        "headers": [[k, v] for k, v in headers],
        "bodyBase64": base64.b64encode(body).decode(),
        "accessKeyID": KEY_ID,
        "secretAccessKey": SECRET,
        "sessionToken": TOKEN if case.get("token") else None,
        "dateMilliseconds": FIXED_MS,
        "expected": {
            "canonicalRequest": canonical,
            "stringToSign": string_to_sign,
            "signature": request.headers["Authorization"].rsplit("Signature=", 1)[1],
            "authorization": request.headers["Authorization"],
            "addedHeaders": [[k, v] for k, v in added.items()],
        },
    }


def main():
    out = {"generator": f"botocore {botocore.__version__}", "cases": [build(c) for c in CASES]}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sigv4_cases.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(out['cases'])} cases to {path}")


if __name__ == "__main__":
    main()
