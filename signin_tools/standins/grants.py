"""Each function's S3/STS/SSM grants, read from template.yaml (never copied by hand).

`function_statements(name)` resolves the function's execution role exactly as CloudFormation
would (`!Sub`, `!Ref`, `!GetAtt`, `Fn::Join`, `Fn::If`, `${AWS::...}`, the bucket name) and keeps
the statements about S3, STS and SSM: the policies inline in the role, and every
`AWS::IAM::Policy` attached to it. `moto_policy(name)` is that policy in the form moto can
evaluate, only ever broader (docs/decisions/aws.md, "IAM grants in tests"):
- `?` (exactly one character in IAM) becomes `*`: moto turns a pattern into a regex by replacing
  `*` only, so a `?` would make the previous character optional instead (a run like the UUID's
  `????????-????-...` becomes a single `*`: five `.*` in a row backtrack for minutes in moto);
- conditions are dropped: moto passes no request context for S3, so an Allow with a condition
  evaluates as an explicit Deny there;
- SSM resources become `*`: moto checks SSM actions against the resource `*`, never the ARN.
The simulation's table (Tests/AccountSimulationTests/SimulatedGrants.swift) is held
against `function_statements` by Tests/integration/test_grants.py.
"""
import copy
import json
import re
import sys
from pathlib import Path

from ..repo import ROOT

FUNCTIONS = ("auth-signin", "auth-refresh", "auth-link")
SERVICES = ("s3:", "sts:", "ssm:")
TEMPLATE = ROOT / "template.yaml"
# Parameters whose non-default value turns grants on (the tests configure the Apple key in SSM).
CONFIGURED = {"ApplePrivateKeyParameter": "/signin/*"}


def load_template(path: Path = TEMPLATE) -> dict:
    from samcli.yamlhelper import yaml_parse  # reads the short forms (!Sub, !GetAtt) as Fn:: dicts

    return yaml_parse(Path(path).read_text())


def logical_id(function: str) -> str:
    """auth-signin -> AuthSigninFunction (the template's naming rule)."""
    return "".join(part.capitalize() for part in function.split("-")) + "Function"


class Resolver:
    """Resolves intrinsics as CloudFormation would for one stack in `account`/`region`."""

    def __init__(self, template: dict, bucket: str, account: str = "123456789012", region: str = "us-east-1",
                 partition: str = "aws", stack: str = "signin", role_names: dict | None = None,
                 parameters: dict | None = None):
        self.template, self.bucket, self.account, self.region = template, bucket, account, region
        self.partition, self.stack = partition, stack
        self.role_names = role_names or {}
        self.parameters = {name: p.get("Default", "") for name, p in template.get("Parameters", {}).items()}
        self.parameters.update(parameters or {})

    def ref(self, name: str):
        if name == "AWS::NoValue":
            return None
        pseudo = {"AWS::Region": self.region, "AWS::AccountId": self.account, "AWS::Partition": self.partition,
                  "AWS::StackName": self.stack, "AWS::URLSuffix": "amazonaws.com"}
        if name in pseudo:
            return pseudo[name]
        if name in self.parameters:
            return str(self.parameters[name])
        res = self.template["Resources"][name]
        if res["Type"] == "AWS::S3::Bucket":
            return self.bucket
        if res["Type"] == "AWS::IAM::Role":
            return self.role_names.get(name, f"{self.stack}-{name}")
        if res["Type"] == "AWS::Logs::LogGroup":
            return self.resolve(res["Properties"]["LogGroupName"])
        raise KeyError(f"no value for Ref {name} ({res['Type']})")

    def get_att(self, name: str, attribute: str) -> str:
        res = self.template["Resources"][name]
        if attribute != "Arn":
            raise KeyError(f"no value for GetAtt {name}.{attribute}")
        if res["Type"] == "AWS::S3::Bucket":
            return f"arn:{self.partition}:s3:::{self.bucket}"
        if res["Type"] == "AWS::IAM::Role":
            return f"arn:{self.partition}:iam::{self.account}:role/{self.ref(name)}"
        if res["Type"] == "AWS::Logs::LogGroup":
            return f"arn:{self.partition}:logs:{self.region}:{self.account}:log-group:{self.ref(name)}:*"
        raise KeyError(f"no value for GetAtt {name}.Arn ({res['Type']})")

    def condition(self, name: str) -> bool:
        return bool(self.resolve(self.template["Conditions"][name]))

    def resolve(self, value):
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if not isinstance(value, dict) or len(value) != 1:
            return {k: self.resolve(v) for k, v in value.items()} if isinstance(value, dict) else value
        (fn, arg), = value.items()
        if fn == "Ref":
            return self.ref(arg)
        if fn == "Fn::GetAtt":
            name, attribute = arg.split(".", 1) if isinstance(arg, str) else arg
            return self.get_att(name, attribute)
        if fn == "Fn::Sub":
            text, local = (arg, {}) if isinstance(arg, str) else (arg[0], self.resolve(arg[1]))
            return re.sub(r"\$\{([^}!]+)\}", lambda m: self._sub_var(m.group(1), local), text)
        if fn == "Fn::Join":
            return arg[0].join(self.resolve(arg[1]))
        if fn == "Fn::If":
            return self.resolve(arg[1] if self.condition(arg[0]) else arg[2])
        if fn == "Fn::Equals":
            a, b = self.resolve(arg)
            return a == b
        if fn == "Fn::Not":
            return not self.resolve(arg[0])
        return {fn: self.resolve(arg)}

    def _sub_var(self, var: str, local: dict) -> str:
        if var in local:
            return str(local[var])
        if "." in var:
            return self.get_att(*var.split(".", 1))
        return self.ref(var)


def role_of(template: dict, function: str) -> str:
    role = template["Resources"][logical_id(function)]["Properties"]["Role"]
    att = role["Fn::GetAtt"]
    return (att.split(".", 1) if isinstance(att, str) else att)[0]


def _as_list(v):
    return v if isinstance(v, list) else [v]


def function_statements(function: str, resolver: Resolver) -> list[dict]:
    """The Allow statements of `function`'s role about S3, STS and SSM, resolved, unwidened."""
    template = resolver.template
    role = role_of(template, function)
    documents = []
    for policy in template["Resources"][role]["Properties"].get("Policies", []):
        if "Fn::If" in policy:   # a policy present under a condition
            condition, present, absent = policy["Fn::If"]
            policy = present if resolver.condition(condition) else absent
        if "PolicyDocument" in policy:
            documents.append(policy["PolicyDocument"])
    for res in template["Resources"].values():
        if res["Type"] == "AWS::IAM::Policy" and {"Ref": role} in res["Properties"].get("Roles", []):
            documents.append(res["Properties"]["PolicyDocument"])
    return _service_statements(documents, resolver)


def _service_statements(documents: list[dict], resolver: Resolver) -> list[dict]:
    statements = []
    for doc in documents:
        for st in _as_list(doc["Statement"]):
            if "Fn::If" in st:   # a statement present under a condition (AWS::NoValue otherwise)
                st = resolver.resolve(st)
                if st is None:
                    continue
            actions = [a for a in _as_list(st["Action"]) if a.startswith(SERVICES)]
            if st["Effect"] == "Allow" and actions:   # resolved only now: logs, sqs may name what moto lacks
                kept = resolver.resolve({k: v for k, v in st.items() if k in ("Sid", "Effect", "Resource", "Condition")})
                statements.append({**kept, "Action": actions, "Resource": _as_list(kept["Resource"])})
    return statements


def managed_policy_statements(name: str, resolver: Resolver) -> list[dict]:
    """The Allow statements of the managed policy `name` (e.g. the operator's) about S3, STS and
    SSM, resolved, unwidened."""
    document = resolver.template["Resources"][name]["Properties"]["PolicyDocument"]
    return _service_statements([document], resolver)


# A UUID spelled `????????-????-????-????-????????????` becomes one `*`, not five: moto's regex
# of `.*-.*-.*-.*-.*` backtracks for minutes on a key that does not match.
_QUESTION_RUN = re.compile(r"[?-]*\?[?-]*")


def widened_for_moto(statements: list[dict]) -> list[dict]:
    out = []
    for st in copy.deepcopy(statements):
        st.pop("Condition", None)
        ssm = all(a.startswith("ssm:") for a in st["Action"])
        st["Resource"] = ["*"] if ssm else [_QUESTION_RUN.sub("*", r) for r in st["Resource"]]
        out.append(st)
    return out


def moto_policy(function: str, resolver: Resolver) -> dict:
    return {"Version": "2012-10-17", "Statement": widened_for_moto(function_statements(function, resolver))}


# The simulation's table (SimulatedGrants.swift): its bucket and user role, as SimulationTests set them.
SIMULATION = {"bucket": "sim-identities", "role_names": {"UserAccessRole": "user-access"}}
SWIFT_CASES = {"auth-signin": "signin", "auth-refresh": "refresh", "auth-link": "link"}
# The operator's console (authctl) runs with the managed policy OperatorPolicy, not a function role.
OPERATOR = "OperatorPolicy"


def swift_table(template: dict | None = None) -> str:
    """The generated block of SimulatedGrants.swift: each function's statements, unwidened (the
    simulation evaluates `?` and the `s3:prefix` condition exactly); `$B` is the bucket's ARN."""
    resolver = Resolver(template or load_template(), bucket=SIMULATION["bucket"], role_names=SIMULATION["role_names"],
                        parameters=CONFIGURED)
    q = json.dumps
    lines = ["        ["]
    owners = [(SWIFT_CASES[f], f, function_statements(f, resolver)) for f in FUNCTIONS]
    owners.append(("operator", OPERATOR, managed_policy_statements(OPERATOR, resolver)))
    for case, f, statements in owners:
        lines.append(f"            .{case}: [")
        for st in statements:
            condition = st.get("Condition")
            prefix = "nil"
            if condition:
                if list(condition) != ["StringLike"] or list(condition["StringLike"]) != ["s3:prefix"]:
                    raise ValueError(f"{f}: the simulation models only StringLike s3:prefix, not {condition}")
                prefix = q(condition["StringLike"]["s3:prefix"])
            lines.append(f"                SimulatedGrant(")
            lines.append(f"                    actions: [{', '.join(q(a) for a in st['Action'])}],")
            bucket = f"arn:aws:s3:::{SIMULATION['bucket']}"
            resources = [("$B" + r[len(bucket):]) if r.startswith(bucket) else r for r in st["Resource"]]
            lines.append("                    resources: [")
            lines += [f"                        {q(r)}," for r in resources]
            lines.append("                    ],")
            lines.append(f"                    prefix: {prefix}),")
        lines.append("            ],")
    lines.append("        ]")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Prints every function's derived statements (as the tests see them) as JSON; with --swift,
    the generated block of the simulation's table."""
    if argv[:1] == ["--swift"]:
        print(swift_table(), end="")
        return 0
    template = load_template(Path(argv[0]) if argv else TEMPLATE)
    resolver = Resolver(template, bucket="signin-identities-local", parameters=CONFIGURED)
    print(json.dumps({f: function_statements(f, resolver) for f in FUNCTIONS}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
