#!/usr/bin/env bash
# The layering rule, checked on every `make test`: the core knows nothing of
# screens, the screens nothing of ncurses. Only the terminal target imports
# the curses shim; only the core imports sqlite, OpenSSL, zxcvbn, libargon2, libzip, zlib,
# libsodium, libcbor and the QR reader (zbar, libpng, libjpeg), and the word floors' data.
# An argument names another tree to check (the layer check's own test gives it a copy with a deliberate offence).
set -u
cd "${1:-$(dirname "$0")/..}"
failed=0
offenders() { # $1: pattern, $2: the directories allowed to match (an extended regex)
  grep -rlE "$1" Sources --include='*.swift' --include='*.c' --include='*.h' | grep -vE "^($2)(/|$)" || true
}
check() { # $1: what, $2: pattern, $3: allowed directory
  local found
  found=$(offenders "$2" "$3")
  if [ -n "$found" ]; then
    echo "layer check: $1 outside $3:"; echo "$found" | sed 's/^/  /'; failed=1
  fi
}
check "import CNcurses" '^\s*import\s+CNcurses' Sources/BulwarkTerminal
check "curses.h" '#\s*include\s*[<"](n?curses|ncursesw/curses)\.h' Sources/CNcurses
check "import CSQLite" '^\s*import\s+CSQLite' Sources/BulwarkCore
check "import CCrypto" '^\s*import\s+CCrypto' Sources/BulwarkCore
check "import CZxcvbn" '^\s*import\s+CZxcvbn' Sources/BulwarkCore
check "import CArgon2" '^\s*import\s+CArgon2' Sources/BulwarkCore
check "import CZip" '^\s*import\s+CZip' Sources/BulwarkCore
check "import CZlib" '^\s*import\s+CZlib' Sources/BulwarkCore
check "import CSodium" '^\s*import\s+CSodium' Sources/BulwarkCore
check "import CQRDecode" '^\s*import\s+CQRDecode' Sources/BulwarkCore
check "import CCbor" '^\s*import\s+CCbor' Sources/BulwarkCore
check "import CMalloc" '^\s*import\s+CMalloc' Sources/BulwarkCore
check "import CWordFloors" '^\s*import\s+CWordFloors' Sources/BulwarkCore
# Process hardening and what a spawned child inherits: the executable, the terminal target's tool runner, the core's spawner (git, gpg),
# the agents' socket (a peer's uid from SO_PEERCRED, whose struct needs _GNU_SOURCE), and the bench's pseudo-terminal.
check "import CHardening" '^\s*import\s+CHardening' 'Sources/bulwark|Sources/BulwarkTerminal|Sources/BulwarkCore/Model/Spawn.swift|Sources/BulwarkCore/Agent/AgentSocket.swift|Sources/bulwark-bench/PseudoTerminal.swift'
# The executable, and the bench (it times a minimal ncurses program as the start-up floor).
check "import BulwarkTerminal" '^\s*import\s+BulwarkTerminal' 'Sources/bulwark|Sources/bulwark-bench'
# The core and the upgrades never reach up into the screens.
for dir in Sources/BulwarkCore Sources/BulwarkUpgrades; do
  found=$(grep -rlE '^\s*import\s+(BulwarkTUI|BulwarkTerminal)' "$dir" || true)
  [ -n "$found" ] && { echo "layer check: $dir imports a UI layer:"; echo "$found" | sed 's/^/  /'; failed=1; }
done
# The core names no mock service and no demo (they live in BulwarkUpgrades; the
# generator's seeded initialiser is an SPI the mocks call, named for them).
mocks='\b(Mock[A-Z][A-Za-z]*|DemoSetup|ServiceWorld)\b'
found=$(grep -rnE "$mocks" Sources/BulwarkCore --include='*.swift' | grep -v '@_spi(MockServices)' || true)
[ -n "$found" ] && { echo "layer check: the core names a mock or the demo:"; echo "$found" | sed 's/^/  /'; failed=1; }
# The engine (the upgrade state machine, the reconciler, sign-in and sign-up,
# the protocols and manifests) speaks only ServiceDirectory and its parts.
found=$(grep -rnE "$mocks" Sources/BulwarkUpgrades/Engine Sources/BulwarkUpgrades/Protocol Sources/BulwarkUpgrades/Manifest --include='*.swift' || true)
[ -n "$found" ] && { echo "layer check: the engine names a mock or the demo:"; echo "$found" | sed 's/^/  /'; failed=1; }
# The real commands neither: only the wiring and the commands that drive the mocks on purpose may.
drivers='ServiceWiring|ServicesCommand|DemoCommand|AutoplayCommand|PasskeyAtService|ProviderSignIn'
found=$(grep -rnE "$mocks" Sources/bulwark --include='*.swift' | grep -vE "^Sources/bulwark/($drivers)\.swift:" || true)
[ -n "$found" ] && { echo "layer check: a real command names a mock or the demo (wire it in ServiceWiring.swift):"; echo "$found" | sed 's/^/  /'; failed=1; }
found=$(grep -rlE '^\s*import\s+BulwarkCore' Sources/BulwarkTerminal || true)
[ -n "$found" ] && { echo "layer check: the terminal backend imports the core:"; echo "$found" | sed 's/^/  /'; failed=1; }
if [ $failed = 0 ]; then echo "layer check: ok"; fi
exit $failed
