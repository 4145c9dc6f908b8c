#!/usr/bin/env bash
# Regenerates common-passwords.txt: the SHA-1 of every password in Openwall's
# list (Debian's john-data, /usr/share/john/password.lst, public domain per
# its header), in Have I Been Pwned's "Pwned Passwords" format, sorted by
# hash, CRLF line ends. The list has ranks, not breach counts, so every count
# is 0, which bulwark reads as "on a list of the most common passwords".
set -euo pipefail
list=${1:-/usr/share/john/password.lst}
cd "$(dirname "$0")"
grep -v '^#!comment:' "$list" | while IFS= read -r password; do
  printf '%s' "$password" | sha1sum | awk '{ printf "%s:0\r\n", toupper($1) }'
done | LC_ALL=C sort -u > common-passwords.txt
wc -l common-passwords.txt
