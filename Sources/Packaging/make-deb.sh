#!/usr/bin/env bash
# Builds bulwark_VERSION_ARCH.deb from the release binary with dpkg-deb:
# the binary (stripped), its man pages (gzipped) and completions, made by
# the binary itself; Depends from dpkg-shlibdeps, which reads the binary's
# real library needs; the copyright of bulwark and of its bundled data.
# Usage: make-deb.sh BINARY VERSION   (prints the .deb's path)
set -euo pipefail
binary=$1 version=$2
here=$(cd "$(dirname "$0")" && pwd)
arch=$(dpkg --print-architecture)
work=.build-deb
root=$work/root
rm -rf "$work"
mkdir -p "$root/DEBIAN"

make --no-print-directory install RELEASE_BIN="$binary" DESTDIR="$PWD/$root" PREFIX=/usr \
  ZSHDIR="$PWD/$root/usr/share/zsh/vendor-completions" >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/bulwark"
gzip -9n "$root"/usr/share/man/man1/*.1

doc=$root/usr/share/doc/bulwark
install -d "$doc"
install -m 0644 "$here/copyright" "$doc/copyright"
sed "s/@VERSION@/$version/" "$here/changelog" | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

# dpkg-shlibdeps wants a debian/control beside it; only the package's name matters.
shlibs=$work/shlibs
mkdir -p "$shlibs/debian"
printf 'Source: bulwark\n\nPackage: bulwark\nArchitecture: any\n' > "$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O "$OLDPWD/$root/usr/bin/bulwark" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: bulwark
Version: $version
Architecture: $arch
Maintainer: bulwark maintainers <bulwark@users.noreply.github.com>
Installed-Size: $size
Depends: $depends
Recommends: git
Suggests: openssh-client, gnupg
Section: utils
Priority: optional
Description: terminal password manager that fixes weak, reused and breached passwords
 bulwark keeps passwords, passkeys and verification codes in an encrypted
 vault and ranks its Security Recommendations: breached, reused and weak
 passwords, by severity and by the kind of account. One key upgrades an
 account to a strong password, Sign in with Apple or a passkey, through mock
 services that behave as real ones do. A full-screen terminal app, and
 commands for scripts: import and export (Bitwarden, 1Password, KeePass,
 Chrome, Firefox, LastPass, Apple), verification codes, passkeys, doctor,
 and sync through git between machines (git is needed for sync only).
CONTROL
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +

deb=$work/bulwark_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
