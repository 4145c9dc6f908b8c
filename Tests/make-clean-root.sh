#!/usr/bin/env bash
# The clean Debian root the package test installs bulwark into: debootstrap's
# minimal base of this machine's release, from deb.debian.org, kept as a
# tarball the test unpacks afresh each run (DebianPackageTests).
#
# Why made here: debootstrap is some 45 CPU-seconds of unpacking, and inside
# a full make test, sharing the cores with six other test processes, the
# test that ran it took 480 s of the 520. make test runs this beside its
# build (make clean-root), once; later runs reuse the tarball. From a
# fresh clone that moves the work rather than saving it (both cores are
# busy throughout); a second run saves it.
#
# Where a clean root cannot be made (not root, no debootstrap, no mirror)
# this says why and exits 0, and the test says it is skipped, and why, as it
# always has; where debootstrap fails (no right to chroot, say), the test
# tries for itself.
#
#   $1  the tarball to make (nothing is done when it exists)
set -u
tarball=$1
[ -f "$tarball" ] && exit 0
codename=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)
mirror=http://deb.debian.org/debian
why=""
if [ "$(id -u)" != 0 ]; then why="not root"
elif ! command -v debootstrap >/dev/null; then why="no debootstrap"
elif [ -z "$codename" ]; then why="no VERSION_CODENAME in /etc/os-release"
elif ! curl -sfI --max-time 10 "$mirror/dists/$codename/Release" >/dev/null; then why="$mirror is not reachable"
fi
if [ -n "$why" ]; then
  echo "clean-root: not made ($why); the clean Debian root test will be skipped"
  exit 0
fi
mkdir -p "$(dirname "$tarball")"
root=$(mktemp -d "$(dirname "$tarball")/clean-root.XXXXXX")
trap 'rm -rf "$root" "$tarball.partial"' EXIT
if ! debootstrap --variant=minbase "$codename" "$root" "$mirror" >"$root.log" 2>&1; then
  echo "clean-root: debootstrap failed; the clean Debian root test will make its own:"
  tail -5 "$root.log"
  rm -f "$root.log"
  exit 0
fi
rm -f "$root.log"
# Written under another name and renamed: a stopped run leaves no half tarball.
tar -C "$root" -cf "$tarball.partial" . && mv "$tarball.partial" "$tarball"
echo "clean-root: $codename's minimal base in $tarball"
