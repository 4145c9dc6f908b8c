# bulwark: `make run` starts the demo, `make test` runs every test.
# Both install the Debian packages bulwark needs when run as root, and
# otherwise print the exact apt-get line to run.

SWIFT        ?= swift
DEB_PACKAGES := libncurses-dev libsqlite3-dev libssl-dev libzxcvbn-dev libargon2-dev libzip-dev zlib1g-dev libsodium-dev libzbar-dev libpng-dev libjpeg-dev libcbor-dev libfido2-dev libcurl4-openssl-dev libxml2-dev pkg-config tmux git
# make run's and make test's: the debug build.
BIN          := .build/debug/bulwark
# The installed binary: a release build. Each build links the Swift runtime
# and Foundation in (Package.swift), so it needs only the Debian C
# libraries it names.
RELEASE_BIN  := .build/release/bulwark
VERSION      := $(shell sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/bulwark/Usage.swift)

# make install: PREFIX and DESTDIR as every Makefile takes them.
PREFIX       ?= /usr/local
DESTDIR      ?=
BINDIR       := $(DESTDIR)$(PREFIX)/bin
MANDIR       := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR      := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR       := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR      := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
APPDIR       := $(DESTDIR)$(PREFIX)/share/applications

.PHONY: all deps test-deps clean-root build test-build run test test-release check check-layers bench fuzz fuzz-build fuzz-all demo-artifacts clean release install uninstall deb

all: build

# What the tests alone use (never bulwark itself): keepassxc-cli writes the
# exports the import tests read; Xvfb and xclip are the desktop clipboard
# the clipboard test copies to.
# bash, zsh and fish load the completions, man renders the pages, lintian
# checks the package, dpkg-dev works out its Depends.
TEST_DEB_PACKAGES := keepassxc openssh-client openssh-server sqlite3 xvfb xclip chromium bash zsh fish man-db groff-base lintian dpkg-dev binutils debootstrap curl wamerican john-data pass gnupg desktop-file-utils

# $(1): the packages; installed as root, else the apt-get line is printed.
define install-packages
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "bulwark needs these Debian packages:$$missing"; \
	    echo "Install them with:  sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi
endef

deps:
	$(call install-packages,$(DEB_PACKAGES))

test-deps:
	$(call install-packages,$(TEST_DEB_PACKAGES))
	@# py_webauthn, the independent relying party the passkey tests verify with (PyPI).
	@python3 -c "import webauthn" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check 'webauthn>=2,<4' \
	  || echo "py_webauthn could not be installed: the passkey verifier test says it is skipped"

build: deps
	$(SWIFT) build

run: build
	$(BIN) demo

# The binary that is installed and packaged.
release: deps
	$(SWIFT) build -c release --product bulwark

$(RELEASE_BIN):
	$(MAKE) release

# The binary, a page per command and the completions, all made by the
# binary from its command tables.
install: $(RELEASE_BIN)
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR) $(APPDIR)
	install -m 0755 $(RELEASE_BIN) $(BINDIR)/bulwark
	install -m 0644 Sources/Packaging/bulwark-code-setup.desktop $(APPDIR)/bulwark-code-setup.desktop
	$(RELEASE_BIN) manpages $(MANDIR) >/dev/null
	$(RELEASE_BIN) completions bash > $(BASHDIR)/bulwark
	$(RELEASE_BIN) completions zsh > $(ZSHDIR)/_bulwark
	$(RELEASE_BIN) completions fish > $(FISHDIR)/bulwark.fish
	chmod 0644 $(BASHDIR)/bulwark $(ZSHDIR)/_bulwark $(FISHDIR)/bulwark.fish

uninstall:
	rm -f $(BINDIR)/bulwark $(MANDIR)/bulwark.1 $(MANDIR)/bulwark-*.1 \
	  $(BASHDIR)/bulwark $(ZSHDIR)/_bulwark $(FISHDIR)/bulwark.fish $(APPDIR)/bulwark-code-setup.desktop

# bulwark_VERSION_ARCH.deb in .build-deb/ (Sources/Packaging/make-deb.sh).
deb: $(RELEASE_BIN)
	bash Sources/Packaging/make-deb.sh $(RELEASE_BIN) $(VERSION)

# The demo as pictures in docs/demo (checked in; a test says when they are
# stale): the web player of every scenario, an animated SVG of each, and
# the page that shows them. Same bytes every run.
demo-artifacts: build
	$(BIN) demo --gallery docs/demo

# Every test: unit, golden, headless flows, the real binary under tmux,
# the install and the Debian package of that binary, and the layer check;
# the tests in several processes at once (Tests/run-tests.sh says why).
# One debug build makes the binary and the tests (Package.swift says why
# not a release build), beside it the test tools then the clean Debian root
# the package test installs into (made once: clean-root).
test: deps check-layers
	$(call run-tests,$(BIN))

# The same tests against the binary make install installs: the release
# build's bulwark run by every end-to-end test, installed by the install
# and package tests (the tests themselves from the debug build).
test-release: deps check-layers
	$(call run-tests,$(RELEASE_BIN),release)

# The runner, with $(1) the binary every end-to-end test runs and the
# install and package tests install, and $(2) what else to build first.
run-tests = BULWARK_BIN=$(CURDIR)/$(1) BULWARK_INSTALL_BIN=$(CURDIR)/$(1) BULWARK_CLEAN_ROOT=$(CURDIR)/$(CLEAN_ROOT) \
  BULWARK_TESTS_BUILD="$(MAKE) --no-print-directory -j2 --output-sync=target test-build $(2) clean-root" bash Tests/run-tests.sh

# debootstrap's minimal base of this machine's Debian release, as a tarball
# the package test unpacks afresh each run (Tests/make-clean-root.sh).
CLEAN_ROOT := .build/clean-root/$(shell sed -n 's/^VERSION_CODENAME=//p' /etc/os-release).tar
clean-root: test-deps
	@bash Tests/make-clean-root.sh $(CLEAN_ROOT)

# The debug build with its tests.
test-build: deps
	$(SWIFT) build --build-tests

check-layers:
	@bash Tests/check-layers.sh

# The edit-compile-test loop: the debug build and its tests, then the
# screens' goldens and flows and the upgrade engine against its mock
# services, and the layer check; no package, no terminal or network tools
# (make test runs everything).
check: check-layers
	$(SWIFT) build --build-tests
	BULWARK_BIN=$(CURDIR)/$(BIN) $(SWIFT) test --skip-build --filter 'BulwarkTUITests|BulwarkUpgradesTests|JSONStreamTests|CSVTests|PasswordRulesTests'

# Speed and memory figures, on a release build.
bench: deps
	$(call install-packages,time)
	$(SWIFT) build -c release --product bulwark
	$(SWIFT) build -c release --product bulwark-bench
	BULWARK_BENCH_RELEASE_BINARY=$(RELEASE_BIN) .build/release/bulwark-bench

# libFuzzer: FUZZ_TARGET=password-rules (default), otpauth-url, sms-code,
# pwned-passwords, import-csv, import-json, import-1pux, import-cxf, import-other, json-tape, agent-request, ssh-agent-message, kdbx-xml, kdbx-file, terminal-text, service-manifest, qr-image, cbor,
# webauthn-options or jws;
# FUZZ_SECONDS=60. New inputs that found new paths are added to the saved
# corpus, which `make test` replays. `make fuzz-all` runs every target for
# FUZZ_SECONDS, two at a time (one per core), and prints each one's final
# figures (executions, coverage) into .build-fuzz/logs/.
FUZZ_TARGET  ?= password-rules
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := password-rules otpauth-url sms-code pwned-passwords import-csv import-json import-1pux import-cxf import-other json-tape agent-request ssh-agent-message kdbx-xml kdbx-file terminal-text service-manifest qr-image cbor webauthn-options jws
FUZZ_BIN     := .build-fuzz/debug/bulwark-fuzz
fuzz-corpus = $(if $(filter service-manifest,$(1)),Tests/BulwarkUpgradesTests/FuzzCorpus/$(1),Tests/BulwarkCoreTests/FuzzCorpus/$(1))

fuzz-build: deps
	BULWARK_FUZZ=1 $(SWIFT) build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld --product bulwark-fuzz

fuzz: fuzz-build
	mkdir -p $(call fuzz-corpus,$(FUZZ_TARGET))
	SWIFT_BACKTRACE=enable=no BULWARK_FUZZ_CHECK=$(FUZZ_TARGET) $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) \
	  $(call fuzz-corpus,$(FUZZ_TARGET))

fuzz-all: fuzz-build
	mkdir -p .build-fuzz/logs
	@set -e; set -- $(FUZZ_TARGETS); \
	while [ $$# -gt 0 ]; do \
	  for t in $$1 $${2:-}; do \
	    [ -n "$$t" ] || continue; \
	    case $$t in service-manifest) dir=Tests/BulwarkUpgradesTests/FuzzCorpus/$$t;; *) dir=Tests/BulwarkCoreTests/FuzzCorpus/$$t;; esac; \
	    SWIFT_BACKTRACE=enable=no BULWARK_FUZZ_CHECK=$$t $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	      $$dir > .build-fuzz/logs/$$t.log 2>&1 & \
	  done; wait; \
	  shift; [ $$# -gt 0 ] && shift; \
	done; \
	for t in $(FUZZ_TARGETS); do \
	  printf '%-18s %s %s\n' $$t "$$(grep -o 'stat::number_of_executed_units: [0-9]*' .build-fuzz/logs/$$t.log)" \
	    "$$(grep -E '^#[0-9]+.*(DONE|cov:)' .build-fuzz/logs/$$t.log | tail -1 | grep -o 'cov: [0-9]* ft: [0-9]*')"; \
	  grep -q 'ERROR: libFuzzer\|Fatal error' .build-fuzz/logs/$$t.log && { echo "$$t FOUND A CRASH: see .build-fuzz/logs/$$t.log"; exit 1; } || true; \
	done

clean:
	rm -rf .build .build-*
