"""The project's Python tooling: local stand-ins for the services the functions talk to, the
demo, the offline invoke, the test-token minter, the provided.al2023 readiness check and the
benchmark drivers. Run from the repository root, where it is importable as it stands (no install):

    .venv/bin/python -m signin_tools.<module> ...

The shell scripts in scripts/ are the entry points; Tests/integration imports it through pytest's
``pythonpath`` (pytest.ini). Each module's docstring says what it holds.
"""
