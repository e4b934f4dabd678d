"""Download every wheel the bundled server needs, for each supported Python of one platform, into one folder.

    python wheelhouse.py --dest bundled/wheels --pythons 3.10,3.11,3.12,3.13 [--target win32-x64 --platform TAG...]
                         <toolsense wheel>[mcp] pip

`pip download --python-version` picks each dependency's wheels for that Python, but it evaluates the dependencies'
environment markers for the Python that runs it (pypa/pip#11010, pypa/pip#10050): built with 3.11, a 3.10 user
would miss `tomli` and `exceptiongroup` (`python_version < "3.11"`); built on Linux, a Windows user would miss
`colorama` (`sys_platform == "win32"`). So each Python's download goes to a folder of its own, which is then walked
from the requirements down, every marker evaluated for the target, and what the walk needs and the folder lacks is
downloaded too (with the requirements, so pip resolves it all together), until nothing is missing. The extension then
installs with `pip install --no-index --find-links`: the user's Python evaluates the markers and takes its wheels.
"""

from __future__ import annotations

import argparse
import email.parser
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

try:
    from packaging.markers import default_environment
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name, parse_wheel_filename
except ImportError:  # pragma: no cover - `build`, which makes the toolsense wheel, brings packaging
    from pip._vendor.packaging.markers import default_environment  # type: ignore[no-redef]
    from pip._vendor.packaging.requirements import Requirement  # type: ignore[no-redef]
    from pip._vendor.packaging.utils import canonicalize_name, parse_wheel_filename  # type: ignore[no-redef]

# What the markers of another platform's Python see (PEP 508 environment markers); `platform_machine` from the
# target's architecture.
PLATFORMS = {
    "linux": {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"},
    "darwin": {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix"},
    "win32": {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt"},
}
MACHINES = {
    "linux-x64": "x86_64",
    "linux-arm64": "aarch64",
    "darwin-x64": "x86_64",
    "darwin-arm64": "arm64",
    "win32-x64": "AMD64",
    "win32-arm64": "ARM64",
}
ROUNDS = 10


def marker_environment(python: str, target: str | None) -> dict[str, str]:
    """The markers' view of a CPython `python` (3.X) on the target (this machine when None)."""
    environment = dict(default_environment())
    if target is not None:
        environment.update(PLATFORMS[target.split("-")[0]], platform_machine=MACHINES[target])
    full = f"{python}.0"
    environment.update(
        python_version=python,
        python_full_version=full,
        implementation_name="cpython",
        implementation_version=full,
        platform_python_implementation="CPython",
    )
    return environment


def _root(text: str) -> tuple[str, frozenset[str]]:
    """A requirement as given on the command line (`path/name-1.0-py3-none-any.whl[extra]` or `name[extra]`)."""
    match = re.fullmatch(r"(.*?\.whl)(?:\[(.*)\])?", text)
    if match:
        name = parse_wheel_filename(Path(match.group(1)).name)[0]
        extras = match.group(2) or ""
        return canonicalize_name(name), frozenset(e.strip() for e in extras.split(",") if e.strip())
    requirement = Requirement(text)
    return canonicalize_name(requirement.name), frozenset(requirement.extras)


def _requires(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
        metadata = email.parser.Parser().parsestr(archive.read(name).decode("utf-8"))
    return metadata.get_all("Requires-Dist") or []


def missing(folder: Path, roots: list[str], environment: dict[str, str]) -> list[str]:
    """The requirements the target needs (markers evaluated for it) that no wheel in `folder` provides."""
    wheels: dict[str, Path] = {}
    for wheel in sorted(folder.glob("*.whl")):
        name, version, _, _ = parse_wheel_filename(wheel.name)
        known = wheels.get(name)
        if known is None or parse_wheel_filename(known.name)[1] < version:
            wheels[name] = wheel
    needed: list[str] = []
    queue = [_root(root) for root in roots]
    seen: set[tuple[str, frozenset[str]]] = set()
    while queue:
        name, extras = queue.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        wheel = wheels.get(name)
        if wheel is None:
            continue  # reported by whoever required it
        for line in _requires(wheel):
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is not None and not any(
                marker.evaluate({**environment, "extra": extra}) for extra in (*sorted(extras), "")
            ):
                continue
            dependency = canonicalize_name(requirement.name)
            if dependency not in wheels:
                extra_text = f"[{','.join(sorted(requirement.extras))}]" if requirement.extras else ""
                needed.append(f"{requirement.name}{extra_text}{requirement.specifier}")
            queue.append((dependency, frozenset(requirement.extras)))
    return sorted(set(needed))


def download(python_exe: str, folder: Path, python: str, platforms: list[str], requirements: list[str]) -> None:
    command = [python_exe, "-m", "pip", "download", "--disable-pip-version-check", "--only-binary=:all:"]
    command += ["--python-version", python, "--dest", str(folder)]
    for tag in platforms:
        command += ["--platform", tag]
    subprocess.run([*command, *requirements], check=True, stdout=subprocess.DEVNULL)


def wheelhouse(dest: Path, pythons: list[str], target: str | None, platforms: list[str], roots: list[str]) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for python in pythons:
        environment = marker_environment(python, target)
        with tempfile.TemporaryDirectory(prefix=f"wheels-{python}-") as temporary:
            folder = Path(temporary)
            download(sys.executable, folder, python, platforms, roots)
            for _ in range(ROUNDS):
                lacking = missing(folder, roots, environment)
                if not lacking:
                    break
                sys.stderr.write(f"wheelhouse: Python {python} also needs {', '.join(lacking)}\n")
                download(sys.executable, folder, python, platforms, [*roots, *lacking])
            else:
                raise SystemExit(f"wheelhouse: Python {python} still lacks {lacking} after {ROUNDS} rounds")
            for wheel in folder.glob("*.whl"):
                if not (dest / wheel.name).exists():
                    shutil.copy2(wheel, dest / wheel.name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", type=Path, required=True)
    parser.add_argument("--pythons", required=True, help="comma-separated: 3.10,3.11,3.12,3.13")
    parser.add_argument("--target", choices=sorted(MACHINES), help="another platform (with --platform tags)")
    parser.add_argument("--platform", action="append", default=[], help="a pip platform tag (repeatable)")
    parser.add_argument("requirements", nargs="+")
    args = parser.parse_args(argv)
    pythons = [p.strip() for p in args.pythons.split(",") if p.strip()]
    wheelhouse(args.dest, pythons, args.target, args.platform, args.requirements)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
