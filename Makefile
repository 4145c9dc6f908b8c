# bulwark: `make run` starts the demo, `make test` runs every test.
# Both install the Debian packages bulwark needs when run as root, and
# otherwise print the exact apt-get line to run.

SWIFT        ?= swift
DEB_PACKAGES := libncurses-dev libsqlite3-dev libssl-dev libzxcvbn-dev tmux
BIN          := .build/debug/bulwark
RELEASE_BIN  := .build/release/bulwark

.PHONY: all deps build run test check-layers bench fuzz clean

all: build

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
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

build: deps
	$(SWIFT) build

run: build
	$(BIN) demo

# Every test: unit, golden, headless flows, the real binary under tmux,
# and the layer check.
test: build check-layers
	$(SWIFT) build --build-tests
	BULWARK_BIN=$(CURDIR)/$(BIN) $(SWIFT) test --skip-build

check-layers:
	@bash Tests/check-layers.sh

# Speed and memory figures, on a release build.
bench: deps
	$(SWIFT) build -c release --product bulwark
	$(SWIFT) build -c release --product bulwark-bench
	.build/release/bulwark-bench

# libFuzzer: FUZZ_TARGET=password-rules (default), otpauth-url or sms-code;
# FUZZ_SECONDS=60.
# New inputs that found new paths are added to the saved corpus, which
# `make test` replays.
FUZZ_TARGET  ?= password-rules
FUZZ_SECONDS ?= 60
fuzz: deps
	BULWARK_FUZZ=1 $(SWIFT) build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld --product bulwark-fuzz
	mkdir -p Tests/BulwarkCoreTests/FuzzCorpus/$(FUZZ_TARGET)
	SWIFT_BACKTRACE=enable=no BULWARK_FUZZ_CHECK=$(FUZZ_TARGET) .build-fuzz/debug/bulwark-fuzz -max_total_time=$(FUZZ_SECONDS) \
	  Tests/BulwarkCoreTests/FuzzCorpus/$(FUZZ_TARGET)

clean:
	rm -rf .build .build-*
