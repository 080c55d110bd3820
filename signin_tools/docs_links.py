"""Every relative Markdown link, and every `docs/decisions...` reference in any file, points at something
that exists: a file, and the heading it names.

    .venv/bin/python -m signin_tools.docs_links      # prints each broken one; exit status 1 if any

Checked:
- In Markdown files, inline links `[text](target)` and reference definitions `[label]: target` whose target
  is not a URL: the file (or folder) must exist, inside the repository; `#anchor` must be a heading of
  that file (GitHub's slug: lower case, punctuation dropped, spaces as hyphens, `-1`... for repeats) or an
  explicit `<a id=…>`. Links in code blocks and code spans are text, not links.
- In every text file the repository holds (Swift, Python, scripts, template.yaml, Markdown, ...), a
  mention of `docs/decisions` followed by a path must name a file that exists, so a reference to the old
  single log or a renamed area file fails. When `, "Title"` follows it (the convention for naming an
  entry: `docs/decisions/deletion.md, "The purge"`), some heading of that file must start with Title.

The files are what git tracks plus what it would add (untracked, not ignored), so `.build`, the venvs
and other ignored output are never read.
"""
import os
import re
import subprocess
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from signin_tools.repo import ROOT


@dataclass(frozen=True)
class Broken:
    path: str
    line: int
    target: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.target}: {self.reason}"


FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
CODE_SPAN = re.compile(r"(`+).*?\1")
EXPLICIT_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
DECISIONS = re.compile(r"docs/decisions(?:\.md|/[A-Za-z0-9_.-]*[A-Za-z0-9_-])?(#[A-Za-z0-9_-]+)?")
# `, "Title"` (or `: "Title"`) after a reference; a comment may wrap the title onto its next line.
QUOTED_TITLE = re.compile(r"\s*[,:]\s*[\"“]((?:[^\"”\n]|\n\s*(?:///|//|#|\*)?\s*){1,200}?)[\"”]")
COMMENT_WRAP = re.compile(r"\s*\n\s*(?:///|//|#|\*)?\s*")


def repository_files(root: Path) -> list[Path]:
    """What git tracks plus untracked files it does not ignore; without git, a walk skipping dot-folders."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root, capture_output=True, check=True, timeout=60).stdout
        names = sorted({name for name in listed.decode().split("\0") if name})
        return [root / name for name in names if (root / name).is_file()]
    except (OSError, subprocess.SubprocessError):
        found = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("__pycache__", "bench-out")]
            found += [Path(folder) / f for f in files]
        return sorted(found)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup and punctuation dropped, lower case, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading anchors on its text
    text = text.replace("`", "").strip().lower()
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in " -_" or category[0] in "LNM":
            kept.append(char)
    return "".join(kept).replace(" ", "-")


def headings(text: str) -> list[str]:
    """The headings' texts, in order (outside code blocks)."""
    found = []
    for line in outside_fences(text.split("\n")):
        match = HEADING.match(line)
        if match:
            found.append(match.group(2))
    return found


def outside_fences(lines: list[str]) -> list[str]:
    """The lines with fenced code blocks blanked (numbering kept)."""
    out, fenced = [], False
    for line in lines:
        if FENCE.match(line):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return out


def anchors(text: str) -> set[str]:
    seen: dict[str, int] = {}
    result = set(EXPLICIT_ANCHOR.findall(text))
    for heading in headings(text):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


class Checker:
    def __init__(self, root: Path = ROOT):
        self.root = root.resolve()
        self._texts: dict[Path, str | None] = {}

    def text(self, path: Path) -> str | None:
        if path not in self._texts:
            try:
                self._texts[path] = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                self._texts[path] = None
        return self._texts[path]

    def run(self) -> list[Broken]:
        broken: list[Broken] = []
        for path in repository_files(self.root):
            text = self.text(path)
            if text is None or "\0" in text:
                continue
            relative = path.relative_to(self.root).as_posix()
            if path.suffix == ".md":
                broken += self.markdown_links(path, relative, text)
            broken += self.decision_references(relative, text)
        return broken

    def markdown_links(self, path: Path, relative: str, text: str) -> list[Broken]:
        broken = []
        for number, line in enumerate(outside_fences(text.split("\n")), start=1):
            line = CODE_SPAN.sub("", line)  # a code span's brackets are text, not a link
            targets = INLINE_LINK.findall(line)
            definition = REFERENCE_DEFINITION.match(line)
            if definition:
                targets.append(definition.group(1))
            for target in targets:
                if not target or URL_SCHEME.match(target):
                    continue
                reason = self.resolve(path.parent, target, here=path)
                if reason:
                    broken.append(Broken(relative, number, target, reason))
        return broken

    def resolve(self, base: Path, target: str, here: Path) -> str | None:
        """Why `target` (a path relative to `base`, or `#anchor` of the file `here`) is broken, or None."""
        file_part, _, anchor = target.partition("#")
        destination = (base / file_part).resolve() if file_part else None
        if destination is not None:
            if destination != self.root and self.root not in destination.parents:
                return "points outside the repository"
            if not destination.exists():
                return "no such file"
        if not anchor:
            return None
        page = destination or here
        if page.is_dir() or page.suffix != ".md":
            return None  # an anchor into code or a folder is not checked
        text = self.text(page)
        if text is None or anchor not in anchors(text):
            return f"no heading #{anchor} in {page.relative_to(self.root).as_posix()}"
        return None

    def decision_references(self, relative: str, text: str) -> list[Broken]:
        broken = []
        for match in DECISIONS.finditer(text):
            reference = match.group(0)
            line = text.count("\n", 0, match.start()) + 1
            file_part = reference.partition("#")[0]
            destination = self.root / file_part
            if not destination.exists():
                broken.append(Broken(relative, line, reference, "no such file"))
                continue
            if "#" in reference:
                reason = self.resolve(self.root, reference, here=self.root / relative)
                if reason:
                    broken.append(Broken(relative, line, reference, reason))
            quoted = QUOTED_TITLE.match(text, match.end())
            if quoted and destination.is_file():
                title = COMMENT_WRAP.sub(" ", quoted.group(1)).strip().rstrip("….").strip()
                if not any(h.startswith(title) for h in headings(self.text(destination) or "")):
                    broken.append(Broken(relative, line, f'{reference}, "{title}"', "no heading starts so"))
        return broken


def main() -> int:
    broken = Checker().run()
    for item in broken:
        print(item)
    print(f"{len(broken)} broken link(s) or reference(s)" if broken else "every link and reference resolves")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
