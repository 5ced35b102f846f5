#!/usr/bin/env bash
# Installs what SPConnect needs on a fresh Debian machine, only when missing (sudo when not root).
# The Swift toolchain itself is expected on PATH (see README.md).
set -euo pipefail

packages=(libcurl4-openssl-dev libxml2-dev libmicrohttpd-dev libssl-dev libsecret-1-dev pkg-config curl)
# Optional extras for the full test suite: EXTRA_PACKAGES="chromium php-cli" ./scripts/setup.sh
read -r -a extra <<<"${EXTRA_PACKAGES:-}"
packages+=("${extra[@]}")

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get -o DPkg::Lock::Timeout=900 update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v swift >/dev/null || { echo "setup: the Swift 6.3 toolchain is not on PATH (e.g. /opt/swift/usr/bin)" >&2; exit 1; }
