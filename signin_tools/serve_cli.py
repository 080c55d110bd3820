"""scripts/serve's command line: the local stand-ins (LocalDeployment without its own emulators)
and the Function URL server (serve.py) in front of pools of the three functions; prints the URLs,
serves until Ctrl-C, SIGTERM or --max-seconds, then stops everything it started."""
import contextlib
import json
import sys
import time
from pathlib import Path

from .serve import FunctionURLServer
from .standins.process import run_main


def main(argv: list[str] | None = None) -> int:
    import argparse

    from .repo import ROOT
    from .standins.local import LocalDeployment

    ap = argparse.ArgumentParser(prog="scripts/serve", description="The three functions behind local Function URLs.")
    ap.add_argument("--port", type=int, default=0, help="listen on this loopback port (default: a free one)")
    ap.add_argument("--bin-dir", default=str(ROOT / ".build" / "debug"))
    ap.add_argument("--pool", type=int, default=4, help="emulators per function at most (default 4)")
    ap.add_argument("--real-keys", action="store_true",
                    help="verify tokens with Apple's and Google's real key URLs (needs network) instead of the test IdP")
    ap.add_argument("--apple-audience", default="", help="with --real-keys: APPLE_AUDIENCES (your bundle id)")
    ap.add_argument("--google-audience", default="", help="with --real-keys: GOOGLE_AUDIENCES (your client id)")
    ap.add_argument("--apple-web-return-target", default="https://app.example.com/apple-return",
                    help="APPLE_WEB_RETURN_TARGET of auth-signin: where POST /auth-signin/apple/callback redirects "
                         "(an App Link or intent URL; '' turns the return URL off)")
    ap.add_argument("--max-seconds", type=float, default=0, help="stop after this long (0: until Ctrl-C)")
    ap.add_argument("--url-file", help="also write the URLs as JSON to this file (for scripts)")
    args = ap.parse_args(argv)

    # kill PID, a closed terminal and Ctrl-C stop everything it started (run_main: the first signal
    # stops it, later ones cannot cut the clean-up short).
    with contextlib.ExitStack() as started:
        deployment = LocalDeployment(args.bin_dir, functions=())
        started.callback(deployment.stop)
        deployment.start()

        def env_for(function: str) -> dict:
            env = deployment.env(function)
            if args.real_keys:
                for name in ("APPLE_JWKS_URL", "GOOGLE_JWKS_URL", "FIREBASE_JWKS_URL", "FIREBASE_PROJECT_ID"):
                    env.pop(name, None)
                env["APPLE_AUDIENCES"], env["GOOGLE_AUDIENCES"] = args.apple_audience, args.google_audience
            if function == "auth-signin" and args.apple_web_return_target:
                env["APPLE_WEB_RETURN_TARGET"] = args.apple_web_return_target
            return env

        env = env_for("auth-signin")
        server = FunctionURLServer(Path(args.bin_dir), env_for, ROOT / ".tmp" / "serve-logs", args.pool, args.port)
        started.callback(server.stop)
        server.start()
        try:
            urls = server.urls()
            for name, url in urls.items():
                print(f"{name}: {url}", flush=True)
            if args.apple_web_return_target:
                print(f"apple return URL: {urls['auth-signin']}/apple/callback -> {args.apple_web_return_target}",
                      flush=True)
            s3 = env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
            print(f"s3: {s3} (bucket {env.get('IDENTITY_BUCKET')}, path-style)", flush=True)
            print("tokens: scripts/mint-token apple|google SUB" if not args.real_keys else "tokens: real Apple/Google",
                  flush=True)
            if args.url_file:  # whole or not at all: scripts wait for the file, then read it
                partial = Path(f"{args.url_file}.partial")
                partial.write_text(json.dumps(urls))
                partial.replace(args.url_file)
            deadline = time.monotonic() + args.max_seconds if args.max_seconds else None
            while deadline is None or time.monotonic() < deadline:
                time.sleep(0.5)
        except KeyboardInterrupt:
            pass  # the way to stop it: not an error
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
