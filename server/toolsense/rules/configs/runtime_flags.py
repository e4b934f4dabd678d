"""The options of the runtimes a registry `server.json` package names (`runtimeHint`, else the one its
`registryType` implies): what `runtimeArguments` may hold, since they go to the runtime before the package.

Each list is the runtime's own, with its source and the date it was read:
- `docker run`: `docker run --help` of Docker 28.2.2, read on 2026-12-07 (plus `--net`, `--net-alias`, the
  hidden aliases of `--network`, `--network-alias`);
- `npx` (`npm exec`): `npm exec --help` and every npm configuration key (`npm config ls -l`) of npm 11.19.1, read
  on 2026-12-07 (npm reads any configuration key as a `--key` flag), plus npm's documented shorthands;
- `uvx` (`uv tool run`): the options of `uv tool run` in uv's CLI reference (docs.astral.sh/uv/reference/cli,
  docs.rs uv-cli `ToolRunArgs`) and uv's global options, read on 2026-12-07;
- `dnx` (`dotnet tool exec`): learn.microsoft.com/dotnet/core/tools/dotnet-tool-exec, read on 2026-12-07, plus
  `--yes`, which skips its download prompt.
"""

from __future__ import annotations

_DOCKER = """
--add-host --annotation -a --attach --blkio-weight --blkio-weight-device --cap-add --cap-drop --cgroup-parent
--cgroupns --cidfile --cpu-count --cpu-percent --cpu-period --cpu-quota --cpu-rt-period --cpu-rt-runtime -c
--cpu-shares --cpus --cpuset-cpus --cpuset-mems -d --detach --detach-keys --device --device-cgroup-rule
--device-read-bps --device-read-iops --device-write-bps --device-write-iops --disable-content-trust --dns
--dns-option --dns-search --domainname --entrypoint -e --env --env-file --expose --gpus --group-add --health-cmd
--health-interval --health-retries --health-start-interval --health-start-period --health-timeout --help -h
--hostname --init -i --interactive --io-maxbandwidth --io-maxiops --ip --ip6 --ipc --isolation --kernel-memory -l
--label --label-file --link --link-local-ip --log-driver --log-opt --mac-address -m --memory --memory-reservation
--memory-swap --memory-swappiness --mount --name --network --network-alias --no-healthcheck --oom-kill-disable
--oom-score-adj --pid --pids-limit --platform --privileged -p --publish -P --publish-all --pull -q --quiet
--read-only --restart --rm --runtime --security-opt --shm-size --sig-proxy --stop-signal --stop-timeout
--storage-opt --sysctl --tmpfs -t --tty --ulimit --use-api-socket -u --user --userns --uts -v --volume
--volume-driver --volumes-from -w --workdir --net --net-alias
"""
_NPM_CONFIG = """
access all allow-directory allow-file allow-git allow-remote allow-same-version allow-scripts allow-scripts-pending
allow-scripts-pin also audit audit-level auth-type before bin-links browser bypass-2fa ca cache cache-max cache-min
cafile call cert cidr color commit-hooks cpu dangerously-allow-all-scripts depth description dev diff
diff-dst-prefix diff-ignore-all-space diff-name-only diff-no-prefix diff-src-prefix diff-text diff-unified dry-run
editor engine-strict expect-result-count expect-results expires fetch-retries fetch-retry-factor
fetch-retry-maxtimeout fetch-retry-mintimeout fetch-timeout force foreground-scripts format-package-lock fund git
git-tag-version global global-style globalconfig heading https-proxy if-present ignore-scripts include
include-attestations include-staged include-workspace-root init-author-email init-author-name init-author-url
init-license init-module init-private init-type init-version install-links install-strategy json key
legacy-bundling legacy-peer-deps libc link local-address location lockfile-version loglevel logs-dir logs-max long
maxsockets message min-release-age min-release-age-exclude name node-gyp node-options nodedir noproxy npm-version
offline omit omit-lockfile-registry-resolved only optional orgs orgs-permission os otp pack-destination package
package-lock package-lock-only packages packages-all packages-and-scopes-permission parseable password
prefer-dedupe prefer-offline prefer-online prefix preid production progress provenance provenance-file proxy
read-only rebuild-bundle registry replace-registry-host save save-bundle save-dev save-exact save-optional
save-peer save-prefix save-prod sbom-format sbom-type scope scopes script-shell searchexclude searchlimit
searchopts searchstaleness shell shrinkwrap sign-git-commit sign-git-tag strict-allow-scripts strict-peer-deps
strict-ssl tag tag-version-prefix timing token-description umask unicode update-notifier usage user-agent
userconfig version versions viewer which workspace workspaces workspaces-update yes
"""
_NPM_SHORT = """
-y -p -c -w -g -s -q -d -dd -ddd -v -f -h -H -l -C -D -E -O -P -S -B --ws --silent --quiet --verbose --help
--reg --porcelain --readonly --local --desc --enjoy-by --iwr
"""
_UVX = """
--from --with -w --with-editable --with-requirements --constraints -c --constraint --build-constraints -b
--build-constraint --overrides --override --isolated --env-file --no-env-file --lfs --python -p --show-resolution
--python-platform --torch-backend --index --default-index --index-url -i --extra-index-url --find-links -f
--no-index --index-strategy --keyring-provider --resolution --prerelease --pre --fork-strategy --config-setting -C
--config-settings-package --no-build-isolation --no-build-isolation-package --exclude-newer
--exclude-newer-package --link-mode --compile-bytecode --no-compile-bytecode --no-sources --upgrade -U
--upgrade-package -P --reinstall --reinstall-package --no-build --no-build-package --no-binary --no-binary-package
--only-binary --refresh --no-refresh --refresh-package --allow-insecure-host --cache-dir --no-cache -n
--managed-python --no-managed-python --no-python-downloads --python-preference --quiet -q --verbose -v --color
--native-tls --offline --no-progress --directory --project --config-file --no-config --help -h --version -V
--preview --no-preview --preview-features
"""
_DNX = """
--allow-roll-forward -a --arch --add-source --configfile --disable-parallel --framework --ignore-failed-sources
--interactive --no-http-cache --prerelease --source -v --verbosity --yes -y --help -h
"""

RUNTIME_FLAGS: dict[str, frozenset[str]] = {
    "docker": frozenset(_DOCKER.split()),
    "npx": frozenset(f"--{key}" for key in _NPM_CONFIG.split()) | frozenset(_NPM_SHORT.split()),
    "uvx": frozenset(_UVX.split()),
    "dnx": frozenset(_DNX.split()),
}
"""The options each runtime takes, by the runtime's command."""

RUNTIME_OF_REGISTRY = {"npm": "npx", "pypi": "uvx", "oci": "docker", "nuget": "dnx"}
"""The runtime a package of each registry runs with when its `runtimeHint` names none (the registry's own
examples of `runtimeHint`: npx, uvx, docker, dnx)."""


def runtime_knows(runtime: str, flag: str) -> bool:
    """Whether the runtime takes this option (`--name=value` and npm's `--no-name` read as `--name`)."""
    flags = RUNTIME_FLAGS[runtime]
    name = flag.split("=", 1)[0]
    if name in flags or name == "--":
        return True
    return runtime == "npx" and name.startswith("--no-") and f"--{name[5:]}" in flags
