#!/usr/bin/env bash
# Installs code-server 4.99.4 (VS Code 1.99 in a browser) and its Debian prerequisites, for running the packaged
# extension in a real VS Code without internet access beyond the npm registry and Debian's mirrors.
# Follows ../shared/docs/real-vscode-here.md: code-server's own postinstall cannot run here (it downloads ripgrep
# from GitHub), so the package is installed with --ignore-scripts and its postinstall's work is done by hand.
#
# Usage: scripts/setupCodeServer.sh            prints the installation folder on its last line
# Idempotent and cached: installs into $KUBE_GC_LENS_CACHE/code-server-4.99.4 (default: .cache/ in the repository)
# and does nothing more once the marker file there says the installation is complete. Debian packages are checked
# on every run (cheap) and installed only when missing. Needs root (or sudo) only to install Debian packages.
set -euo pipefail

VERSION=4.99.4
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${KUBE_GC_LENS_CACHE:-$REPO/.cache}"
DIR="$CACHE/code-server-$VERSION"
MARKER="$DIR/.complete"
MARKER_TEXT="code-server $VERSION complete"

log() { echo "setupCodeServer: $*" >&2; }

# One run at a time (two test runs starting together would otherwise install over each other).
mkdir -p "$CACHE"
exec 9>"$CACHE/.code-server-$VERSION.lock"
flock 9

# --- Debian packages: headers for the kerberos native module, ripgrep for search, Chromium for the browser side,
# and a C++ toolchain and Python for node-gyp.
DEBIAN_PACKAGES=(libkrb5-dev ripgrep chromium g++ make python3)
missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" != "install ok installed" ]]; then
    missing+=("$package")
  fi
done
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || { log "need root or sudo to install ${missing[*]}"; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ -f "$MARKER" && "$(cat "$MARKER")" == "$MARKER_TEXT" ]]; then
  log "code-server $VERSION already installed"
  echo "$DIR"
  exit 0
fi

# --- A fresh installation (whatever a previous, interrupted run left is discarded).
log "installing code-server $VERSION into $DIR"
rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
# Its own package.json, so npm does not walk up to the repository's.
echo '{ "name": "code-server-install", "private": true }' >package.json

# node-gyp must build against this Node's headers (it would otherwise download them from nodejs.org).
NODE_PREFIX="$(dirname "$(dirname "$(node -p process.execPath)")")"
if [[ -f "$NODE_PREFIX/include/node/node.h" ]]; then
  export npm_config_nodedir="$NODE_PREFIX"
else
  log "warning: no Node headers under $NODE_PREFIX/include/node; node-gyp will try to download them"
fi
# node-pty's install script runs `npx node-gyp`, which must not prompt.
export npm_config_yes=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# 2. The package, without its scripts.
npm install --no-save --ignore-scripts --loglevel=error "code-server@$VERSION" >/dev/null
CS="$DIR/node_modules/code-server"
VSCODE="$CS/lib/vscode"

# 3. VS Code's own runtime dependencies.
(cd "$VSCODE" && npm install --omit=dev --ignore-scripts --loglevel=error >/dev/null)

# 4. Debian's ripgrep where @vscode/ripgrep's postinstall would have downloaded one.
mkdir -p "$VSCODE/node_modules/@vscode/ripgrep/bin"
ln -sf "$(command -v rg)" "$VSCODE/node_modules/@vscode/ripgrep/bin/rg"

# 5. The native modules, built with this machine's g++ and Node headers.
(cd "$VSCODE" && npm rebuild --loglevel=error kerberos native-watchdog node-pty @vscode/spdlog @vscode/deviceid >/dev/null)

# 6. The symlinks code-server's postinstall.sh makes.
ln -sfn node_modules "$VSCODE/node_modules.asar"
ln -sf code-linux.sh "$VSCODE/bin/remote-cli/code-server"
ln -sf browser-linux.sh "$VSCODE/bin/helpers/browser.sh"

# 7. The built-in extensions' dependencies.
(cd "$VSCODE/extensions" && npm install --omit=dev --ignore-scripts --loglevel=error >/dev/null)

# 8. argon2 (password hashing: loaded even with --auth none).
npm rebuild --loglevel=error argon2 >/dev/null

# --- Check that the native modules load and code-server runs before calling the installation complete.
for module in kerberos native-watchdog node-pty @vscode/spdlog @vscode/deviceid; do
  (cd "$VSCODE" && node -e "require(process.argv[1])" "$module") || { log "native module $module does not load"; exit 1; }
done
node -e "require(process.argv[1])" "$DIR/node_modules/argon2" || { log "argon2 does not load"; exit 1; }
# (its own config folder: code-server writes a default config.yaml on every start)
reported="$(XDG_CONFIG_HOME="$DIR/.config" node "$CS/out/node/entry.js" --version | grep -E '^[0-9]' | head -1)"
[[ "$reported" == "$VERSION "* ]] || { log "unexpected code-server --version: $reported"; exit 1; }

echo "$MARKER_TEXT" >"$MARKER"
log "code-server $VERSION ready"
echo "$DIR"
