#!/bin/sh
# Installs what fusec needs from Debian 12's packages, when it is missing.
# docs/dependencies.md says why each one is here.
set -eu
pkgs="cmake ninja-build gcc make pkg-config re2c lemon libcmocka-dev libjansson-dev gnuplot-nox clang libclang-rt-14-dev python3"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
