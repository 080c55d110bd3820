"""Local stand-ins for the services the functions talk to, all on 127.0.0.1:

- ``Emulator``: the official AWS Lambda Runtime Interface Emulator (shipped in aws-sam-cli)
  running one of the built executables;
- ``MotoServer``: moto's S3 and STS with signature checking switched on;
- ``IdentityProvider``: a test Apple/Google issuer: RSA keys, a JWKS endpoint, token minting;
- ``AppleAuthServer``: Sign in with Apple's ``/auth/token`` and ``/auth/revoke`` (account deletion);
- ``FaultProxy``: a seeded proxy in front of moto that fails requests as AWS does (the storm test).

Every server binds 127.0.0.1 on a free port, every wait is bounded, every process is stopped by pid.
"""
from .ports import free_port, wait_for_port
from .rie import Emulator, rie_path
from .motoserver import MotoServer
from .idp import IdentityProvider
from .apple_auth import AppleAuthServer
from .fault_proxy import FaultProxy
from .local import LocalDeployment, persistent_idp

__all__ = ["free_port", "wait_for_port", "Emulator", "rie_path", "MotoServer", "IdentityProvider", "AppleAuthServer", "FaultProxy", "LocalDeployment", "persistent_idp"]
