"""Driver for scripts/bench.d/45-claims (see there): warm claimPurchase end to end on moto."""
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

from ..repo import ROOT
from ..standins import LocalDeployment
from ..standins.process import run_main
from .stats import network_lines, pct, timed

N_CLAIMS = int(os.environ["N_CLAIMS"])
BIN = Path(os.environ["SIGNIN_RELEASE_DIR"])


def main():
    local = LocalDeployment(BIN, log_dir=ROOT / "bench-out" / "claims-logs", extra_env={"AWS_LAMBDA_LOG_LEVEL": "DEBUG"},
                            functions=("auth-signin", "auth-link"))
    with local:
        signin, link = local.emulators["auth-signin"], local.emulators["auth-link"]
        sub = f"001234.{uuid.uuid4().hex}.0007"
        data = signin.invoke({"provider": "apple", "idToken": local.idp.apple_token(sub)})["data"]
        token, owner = data["refreshToken"], data["user"]["serviceUserID"]
        now = int(time.time() * 1000)

        def signed(i):
            return local.store_pki.sign({"kind": "transaction", "claims": {
                "originalTransactionId": str(3_000_000_000_000_000 + i), "appAccountToken": owner,
                "signedDate": now + i, "purchaseDate": now, "expiresDate": now + 30 * 86_400_000}})
        transactions = [signed(i) for i in range(N_CLAIMS + 10)]
        for jws in transactions[:10]:  # warm: connections open, the chain cached
            assert link.invoke({"refreshToken": token, "action": "claimPurchase", "signedTransaction": jws})["success"]
        mark = len(link.logs())
        it = iter(transactions[10:])

        def claim():
            answer = link.invoke({"refreshToken": token, "action": "claimPurchase", "signedTransaction": next(it)})
            assert answer["success"] and answer["data"]["status"] == "claimed", answer.get("error")
        claims = timed(claim, N_CLAIMS)
        network = network_lines(link.logs(), mark)
        tokens = [local.idp.apple_token(sub) for _ in range(N_CLAIMS)]
        it2 = iter(tokens)
        signins = timed(lambda: signin.invoke({"provider": "apple", "idToken": next(it2), "intent": "signin"}), N_CLAIMS)

    req = statistics.median(r for r, _ in network) if network else float("nan")
    rounds = statistics.median(r for _, r in network) if network else float("nan")
    print(f"claimPurchase end to end, warm, {N_CLAIMS} claims of fresh purchases (emulator → auth-link → moto)")
    print(f"  claim     median {statistics.median(claims):6.2f} ms  p90 {pct(claims, 90):6.2f} ms   "
          f"requests {req:.0f}, sequential rounds {rounds:.0f} (session+account+claim read, listing, create-only claim, subscription)")
    print(f"  sign-in   median {statistics.median(signins):6.2f} ms  p90 {pct(signins, 90):6.2f} ms   (same account, same run: the floor)")


if __name__ == "__main__":
    sys.exit(run_main(main))
