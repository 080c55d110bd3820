"""No link or design-log reference in the repository dangles (signin_tools.docs_links), and the checker
finds each kind of broken one. References are spelled in pieces here so the checker, which reads this
file too, does not take the broken examples for real ones."""
from pathlib import Path

from signin_tools.docs_links import Checker, slug
from signin_tools.repo import ROOT

LOG = "docs/" + "decisions"


def test_every_link_and_design_log_reference_in_the_repository_resolves():
    broken = Checker(ROOT).run()
    assert not broken, "\n".join(str(item) for item in broken)


def test_the_old_single_log_is_gone_and_the_index_lists_every_entry():
    assert not (ROOT / f"{LOG}.md").exists()
    index = (ROOT / LOG / "README.md").read_text()
    for area in sorted((ROOT / LOG).glob("*.md")):
        if area.name == "README.md":
            continue
        assert f"({area.name})" in index, f"{area.name} is not in the index"
        for line in area.read_text().splitlines():
            if line.startswith("## "):
                title = line[3:]
                assert f"[{title}]({area.name}#{slug(title)})" in index, f"{title} is not in the index"


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_the_checker_reports_each_kind_of_dangling_link(tmp_path):
    write(tmp_path, {
        f"{LOG}/area.md": "# Area\n\n## The purge: overlapped rounds\ntext\n\n## Twice\n\n## Twice\n",
        "docs/guide.md": "\n".join([
            "# Guide",
            "[fine](../README.md) [fine too](decisions/area.md#the-purge-overlapped-rounds)",
            "[repeat](decisions/area.md#twice-1) [here](#guide) [web](https://example.com/x.md)",
            "[missing file](nowhere.md)",
            "[missing heading](decisions/area.md#no-such-heading)",
            "[escapes](../../outside.md)",
            "`[in a code span](nowhere.md)`",
            "```", "[in a fence](nowhere.md)", "```",
            "[ref]: gone.md",
        ]) + "\n",
        "README.md": "[same page](#absent)\n",
        "Sources/A.swift": "\n".join([
            f'/// ({LOG}/area.md, "The purge") resolves',
            f'/// ({LOG}/area.md, "The purge:',
            '/// overlapped") resolves across a wrapped comment',
            f"/// ({LOG}.md) is the old file",
            f'/// ({LOG}/area.md, "No such entry") names no heading',
            f"/// ({LOG}/area.md#not-there) names no anchor",
        ]) + "\n",
    })
    found = {(item.path, item.target, item.reason) for item in Checker(tmp_path).run()}
    assert found == {
        ("docs/guide.md", "nowhere.md", "no such file"),
        ("docs/guide.md", "decisions/area.md#no-such-heading", f"no heading #no-such-heading in {LOG}/area.md"),
        ("docs/guide.md", "../../outside.md", "points outside the repository"),
        ("docs/guide.md", "gone.md", "no such file"),
        ("README.md", "#absent", "no heading #absent in README.md"),
        ("Sources/A.swift", f"{LOG}.md", "no such file"),
        ("Sources/A.swift", f'{LOG}/area.md, "No such entry"', "no heading starts so"),
        ("Sources/A.swift", f"{LOG}/area.md#not-there", f"no heading #not-there in {LOG}/area.md"),
    }


def test_slugs_are_githubs():
    assert slug("ECDSA P-256 (ES256) over libcrypto, r‖s at the edge") == "ecdsa-p-256-es256-over-libcrypto-rs-at-the-edge"
    assert slug("The bootstrap defines `hypotf` itself (GLIBC 2.34, not 2.35)") == (
        "the-bootstrap-defines-hypotf-itself-glibc-234-not-235")
    assert slug("Apple's two signed APIs share their key, signer and sender") == (
        "apples-two-signed-apis-share-their-key-signer-and-sender")
