"""A test PKI with the shape of Apple's App Store signing chain, generated at run time (no key is
ever written to disk or committed), with Python ``cryptography``: an implementation independent of
the project's libcrypto calls.

- root: P-384, self-signed, CA (basicConstraints critical), keyCertSign + cRLSign, SKI
  (Apple Root CA - G3's shape);
- intermediate: P-384, issued by the root, CA:TRUE pathlen:0, keyCertSign + cRLSign, SKI, AKI and
  the WWDR intermediate OID 1.2.840.113635.100.6.2.1;
- leaf: P-256, issued by the intermediate, CA:FALSE, digitalSignature, SKI, AKI and the receipt
  signing OID 1.2.840.113635.100.6.11.1.

Subject and authority key identifiers are present so OpenSSL's X509_V_FLAG_X509_STRICT accepts the
chain. Variants for every bad case are named in ``AppStorePKI.VARIANTS`` and made on first use.

    .venv/bin/python -m signin_tools.standins.appstore_pki certificates

prints one JSON line: the time the PKI was made around, each certificate (standard base64 DER), its
validity window, and the root as PEM.

    .venv/bin/python -m signin_tools.standins.appstore_pki sign '{"name": {spec}, ...}'

prints one JSON line: ``now``, ``root_pem``, ``other_root_pem`` and ``signed``: each name's JWS,
signed by the leaf as Apple signs App Store data (see ``AppStorePKI.sign`` for the spec's knobs).
"""
import base64
import datetime
import json
import random
import sys
import time
import uuid

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.x509.oid import NameOID

LEAF_OID = "1.2.840.113635.100.6.11.1"
INTERMEDIATE_OID = "1.2.840.113635.100.6.2.1"
DAY = 86400


class Issued:
    """A certificate and its private key."""

    def __init__(self, certificate: x509.Certificate, key):
        self.certificate = certificate
        self.key = key

    @property
    def der(self) -> bytes:
        return self.certificate.public_bytes(serialization.Encoding.DER)

    @property
    def b64(self) -> str:
        return base64.b64encode(self.der).decode()

    @property
    def pem(self) -> str:
        return self.certificate.public_bytes(serialization.Encoding.PEM).decode()

    @property
    def window(self) -> list[int]:
        return [int(self.certificate.not_valid_before_utc.timestamp()), int(self.certificate.not_valid_after_utc.timestamp())]


class AppStorePKI:
    """Root, intermediate and leaf valid around ``now`` (root and intermediate ±10 years, leaf
    ±1 year), and the variants below, each made on first use from the same keys where that is
    the point (the same leaf key under another issuer, say)."""

    # name: (issuer, kind, overrides). kind is root | intermediate | leaf.
    VARIANTS = {
        "root": (None, "root", {}),
        "intermediate": ("root", "intermediate", {}),
        "leaf": ("intermediate", "leaf", {}),
        # Another root with the same shape, not configured: its chain must be refused.
        "other_root": (None, "root", {"cn": "Other Root CA"}),
        "other_intermediate": ("other_root", "intermediate", {}),
        "other_leaf": ("other_intermediate", "leaf", {}),
        # The App Store OIDs missing.
        "leaf_without_oid": ("intermediate", "leaf", {"oid": None}),
        "intermediate_without_oid": ("root", "intermediate", {"oid": None}),
        "leaf_under_intermediate_without_oid": ("intermediate_without_oid", "leaf", {}),
        # Validity: the leaf expired a day ago (valid the 30 days before), or valid from tomorrow.
        "leaf_expired": ("intermediate", "leaf", {"not_before": -31 * DAY, "not_after": -DAY}),
        "leaf_not_yet_valid": ("intermediate", "leaf", {"not_before": DAY, "not_after": 31 * DAY}),
        # A leaf issued by the root itself (a chain of two), and one under a second intermediate
        # below the first (a chain of four, which pathlen:0 forbids anyway).
        "leaf_by_root": ("root", "leaf", {}),
        "sub_intermediate": ("intermediate", "intermediate", {"cn": "Test Sub Intermediate"}),
        "leaf_under_sub_intermediate": ("sub_intermediate", "leaf", {}),
        # Strict RFC 5280 (X509_V_FLAG_X509_STRICT): a leaf without an authority key identifier.
        "leaf_without_aki": ("intermediate", "leaf", {"aki": False}),
        # A CA:FALSE "intermediate" that issues the leaf.
        "intermediate_not_ca": ("root", "leaf", {"cn": "Test Not A CA", "oid": INTERMEDIATE_OID}),
        "leaf_under_not_ca": ("intermediate_not_ca", "leaf", {}),
        # A P-384 leaf (the JWS must be ES256: a P-256 key).
        "leaf_p384": ("intermediate", "leaf", {"curve": "p384"}),
    }

    def __init__(self, now: int | None = None):
        self.now = int(now if now is not None else time.time())
        self.issued: dict[str, Issued] = {}

    def __getitem__(self, name: str) -> Issued:
        if name not in self.issued:
            issuer_name, kind, overrides = self.VARIANTS[name]
            issuer = self[issuer_name] if issuer_name else None
            self.issued[name] = self._issue(kind, issuer, **overrides)
        return self.issued[name]

    def x5c(self, names: list[str]) -> list[str]:
        return [self[n].b64 for n in names]

    def _issue(self, kind: str, issuer: Issued | None, cn: str | None = None, oid: str | None = "default",
               not_before: int | None = None, not_after: int | None = None, aki: bool = True,
               curve: str | None = None) -> Issued:
        ten_years = 3650 * DAY
        spans = {"root": (-ten_years, ten_years), "intermediate": (-ten_years, ten_years), "leaf": (-365 * DAY, 365 * DAY)}
        before, after = spans[kind]
        before = before if not_before is None else not_before
        after = after if not_after is None else not_after
        curve = curve or ("p256" if kind == "leaf" else "p384")
        key = ec.generate_private_key(ec.SECP256R1() if curve == "p256" else ec.SECP384R1())
        names = {"root": "Test Root CA - G3", "intermediate": "Test Worldwide Developer Relations CA",
                 "leaf": "Test ECC App Store Receipt Signing"}
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn or names[kind]),
                             x509.NameAttribute(NameOID.ORGANIZATION_NAME, "signin-backend tests"),
                             x509.NameAttribute(NameOID.COUNTRY_NAME, "US")])
        signer = issuer.key if issuer else key
        builder = (x509.CertificateBuilder()
                   .subject_name(subject)
                   .issuer_name(issuer.certificate.subject if issuer else subject)
                   .public_key(key.public_key())
                   .serial_number(x509.random_serial_number())
                   .not_valid_before(datetime.datetime.fromtimestamp(self.now + before, datetime.timezone.utc))
                   .not_valid_after(datetime.datetime.fromtimestamp(self.now + after, datetime.timezone.utc))
                   .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
        if issuer and aki:
            builder = builder.add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer.key.public_key()), critical=False)
        is_ca = kind in ("root", "intermediate")
        builder = builder.add_extension(
            x509.BasicConstraints(ca=is_ca, path_length=0 if kind == "intermediate" else None), critical=True)
        builder = builder.add_extension(
            x509.KeyUsage(digital_signature=not is_ca, content_commitment=False, key_encipherment=False,
                          data_encipherment=False, key_agreement=False, key_cert_sign=is_ca, crl_sign=is_ca,
                          encipher_only=False, decipher_only=False), critical=True)
        if oid == "default":
            oid = {"intermediate": INTERMEDIATE_OID, "leaf": LEAF_OID}.get(kind)
        if oid:
            # Apple's value for both: an OCTET STRING holding NULL.
            builder = builder.add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier(oid), b"\x05\x00"),
                                            critical=False)
        digest = hashes.SHA384() if isinstance(signer.curve, ec.SECP384R1) else hashes.SHA256()
        return Issued(builder.sign(signer, digest), key)

    # -- Signed data ------------------------------------------------------------------------------

    BUNDLE_ID = "com.example.photos"
    PRODUCT_ID = "com.example.photos.premium.monthly"
    APP_APPLE_ID = 1234567890

    def payload(self, kind: str) -> dict:
        """Apple's shapes (JWSTransactionDecodedPayload, JWSRenewalInfoDecodedPayload,
        ResponseBodyV2DecodedPayload), dated around ``now`` (milliseconds since the epoch)."""
        ms = self.now * 1000
        if kind == "transaction":
            return {"transactionId": "2000000123456789", "originalTransactionId": "2000000100000001",
                    "webOrderLineItemId": "2000000012345678", "bundleId": self.BUNDLE_ID,
                    "productId": self.PRODUCT_ID, "subscriptionGroupIdentifier": "21000001",
                    "purchaseDate": ms - DAY * 1000, "originalPurchaseDate": ms - 40 * DAY * 1000,
                    "expiresDate": ms + 29 * DAY * 1000, "quantity": 1, "type": "Auto-Renewable Subscription",
                    "appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138", "inAppOwnershipType": "PURCHASED",
                    "signedDate": ms, "environment": "Production", "transactionReason": "RENEWAL",
                    "storefront": "USA", "storefrontId": "143441", "price": 9990, "currency": "USD"}
        if kind == "renewal":
            return {"originalTransactionId": "2000000100000001", "autoRenewProductId": self.PRODUCT_ID,
                    "productId": self.PRODUCT_ID, "autoRenewStatus": 1, "isInBillingRetryPeriod": False,
                    "signedDate": ms, "environment": "Production", "recentSubscriptionStartDate": ms - 40 * DAY * 1000,
                    "renewalDate": ms + 29 * DAY * 1000, "currency": "USD", "renewalPrice": 9990}
        if kind == "app_transaction":
            return {"receiptType": "Production", "appAppleId": self.APP_APPLE_ID, "bundleId": self.BUNDLE_ID,
                    "applicationVersion": "2.3", "versionExternalIdentifier": 0, "receiptCreationDate": ms,
                    "requestDate": ms, "originalPurchaseDate": ms - 100 * DAY * 1000, "originalApplicationVersion": "1.0",
                    "deviceVerification": "dGVzdC1kZXZpY2UtdmVyaWZpY2F0aW9u", "deviceVerificationNonce": str(uuid.uuid4()),
                    "appTransactionId": "704089513299345761", "originalPlatform": "iOS"}
        if kind == "notification":
            return {"notificationType": "DID_RENEW", "notificationUUID": str(uuid.uuid4()), "version": "2.0",
                    "signedDate": ms,
                    "data": {"appAppleId": self.APP_APPLE_ID, "bundleId": self.BUNDLE_ID, "bundleVersion": "42",
                             "environment": "Production", "status": 1}}
        raise ValueError(kind)

    def function_env(self) -> dict:
        """auth-link's App Store configuration trusting this PKI's root, with the one product
        (premium, 1 TiB) every caller uses: the local deployment, the tests, the storm, the soak."""
        return {"APPSTORE_BUNDLE_ID": self.BUNDLE_ID, "APPSTORE_ENVIRONMENTS": "Production,Sandbox",
                "APPSTORE_PRODUCTS": f"{self.PRODUCT_ID}=premium:1099511627776", "APPSTORE_ROOT_CERTS": self["root"].pem,
                "APPSTORE_APP_APPLE_ID": str(self.APP_APPLE_ID)}

    def transaction(self, otid: str, owner: str | None = None, transaction_id: str | None = None, **claims) -> str:
        """A signed subscription transaction of purchase ``otid``, signed now and expiring in 29
        days; ``owner`` the appAccountToken (none when None); ``claims`` merged over it."""
        now = int(time.time() * 1000)
        day = 86_400_000
        payload = {"originalTransactionId": otid,
                   "transactionId": transaction_id or str(2_000_000_000_000_000 + random.randrange(10**15)),
                   "signedDate": now, "purchaseDate": now - day, "expiresDate": now + 29 * day, **claims}
        spec = {"kind": "transaction", "claims": payload}
        if owner is None:
            spec["drop"] = ["appAccountToken"]
        else:
            payload["appAccountToken"] = owner
        return self.sign(spec)

    def sign(self, spec: dict) -> str:
        """A compact JWS as Apple makes them: header ``{"alg": "ES256", "x5c": [leaf, intermediate,
        root]}`` (standard base64 DER), payload of ``kind``, ES256 signature as r‖s. Knobs:

        - ``kind``: transaction | renewal | app_transaction | notification; ``claims`` merged over the
          payload (``data`` merged member by member for a notification), ``drop`` removed;
        - ``app_data`` (notifications): the ``appData`` shape (RESCIND_CONSENT) instead of ``data``:
          Apple's members (appAppleId, bundleId, environment) with these merged over them;
        - ``transaction``, ``renewal``, ``app_transaction`` (notifications): nested specs signed the
          same way into ``data.signedTransactionInfo`` / ``data.signedRenewalInfo`` /
          ``appData.signedAppTransactionInfo``, or a string used as is;
        - ``signed_days_ago``: ``signedDate`` (an app transaction's ``receiptCreationDate``) that
          many days before ``now``;
        - ``chain``: the variants in x5c (default leaf, intermediate, root); ``signer``: the
          variant whose key signs (default the first of the chain);
        - ``alg``: the header's alg (``None`` drops it); ``header``: members merged over the header;
        - ``x5c_encoding``: standard (default) | url (base64url, unpadded);
        - ``signature``: raw (r‖s, default) | der | none (an empty signature part) | flip (one bit changed);
        - ``payload_json``: the payload's exact text, replacing all of the above.
        """
        kind = spec.get("kind", "transaction")
        payload = self.payload(kind)
        claims = dict(spec.get("claims", {}))
        if kind == "notification" and "app_data" in spec:
            del payload["data"]
            payload["appData"] = {"appAppleId": self.APP_APPLE_ID, "bundleId": self.BUNDLE_ID,
                                  "environment": "Production", **spec["app_data"]}
        if kind == "notification" and isinstance(claims.get("data"), dict):
            payload["data"].update(claims.pop("data"))
        payload.update(claims)
        if "signed_days_ago" in spec:
            date = "receiptCreationDate" if kind == "app_transaction" else "signedDate"
            payload[date] = (self.now - spec["signed_days_ago"] * DAY) * 1000
        for name in spec.get("drop", []):
            payload.pop(name, None)
        for block, member, nested in (("data", "signedTransactionInfo", spec.get("transaction")),
                                      ("data", "signedRenewalInfo", spec.get("renewal")),
                                      ("appData", "signedAppTransactionInfo", spec.get("app_transaction"))):
            if nested is not None:
                payload[block][member] = nested if isinstance(nested, str) else self.sign(nested)
        chain = spec.get("chain", ["leaf", "intermediate", "root"])
        encode = (lambda d: base64.urlsafe_b64encode(d).decode().rstrip("=")) \
            if spec.get("x5c_encoding") == "url" else (lambda d: base64.b64encode(d).decode())
        header = {"alg": spec.get("alg", "ES256"), "x5c": [encode(self[n].der) for n in chain]}
        if header["alg"] is None:
            del header["alg"]
        header.update(spec.get("header", {}))
        b64url = lambda b: base64.urlsafe_b64encode(b).decode().rstrip("=")
        payload_text = spec.get("payload_json") or json.dumps(payload, separators=(",", ":"))
        signing_input = b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + b64url(payload_text.encode())
        key = self[spec.get("signer", chain[0])].key
        der = key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256()))
        r, s = utils.decode_dss_signature(der)
        size = (key.curve.key_size + 7) // 8
        raw = r.to_bytes(size, "big") + s.to_bytes(size, "big")
        form = spec.get("signature", "raw")
        signature = {"raw": raw, "der": der, "none": b"", "flip": raw[:-1] + bytes([raw[-1] ^ 1])}[form]
        return signing_input + "." + b64url(signature)

    def describe(self) -> dict:
        """Every variant: base64 DER and validity window; the root as PEM."""
        return {"now": self.now, "root_pem": self["root"].pem, "other_root_pem": self["other_root"].pem,
                "certificates": {n: self[n].b64 for n in self.VARIANTS},
                "windows": {n: self[n].window for n in self.VARIANTS}}


def main(argv: list[str]) -> int:
    if argv == ["certificates"]:
        print(json.dumps(AppStorePKI().describe()))
    elif len(argv) == 2 and argv[0] == "sign":
        pki = AppStorePKI()
        signed = {name: pki.sign(spec) for name, spec in json.loads(argv[1]).items()}
        print(json.dumps({"now": pki.now, "root_pem": pki["root"].pem, "other_root_pem": pki["other_root"].pem,
                          "signed": signed}))
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
