# Builds the three Lambda functions for `sam build` (template.yaml, BuildMethod: makefile).
#
# sam build runs `make --makefile <this file> build-<LogicalId>` with ARTIFACTS_DIR set, either in
# the source folder (samconfig.toml sets build_in_source) or in a temporary copy of it. Either way
# this file's own location is the real checkout, so the Swift build always runs there, in its own
# scratch path (.build-sam), incrementally: never in a copied, possibly stale .build directory.
#
# Each target: release build with the Swift standard library and libstdc++ linked statically, stripped, copied
# as $(ARTIFACTS_DIR)/bootstrap, plus under $(ARTIFACTS_DIR)/lib/ any shared library the
# provided.al2023 image lacks (today: none, see docs/deploy.md), then the size of the zip that
# sam package/deploy will upload.
#
# The bootstrap runs on the build host's architecture: build on x86_64 for the default template,
# on an arm64 host for Architecture=arm64 (scripts/check-al2023 refuses a mismatch).

ROOT    := $(patsubst %/,%,$(dir $(realpath $(firstword $(MAKEFILE_LIST)))))
SCRATCH ?= $(ROOT)/.build-sam
SWIFT   ?= swift
STRIP   ?= strip
# Shared libraries to ship under lib/ (space-separated paths). Empty: the image has everything the
# bootstrap needs (scripts/check-al2023 fails if that stops being true).
EXTRA_LIBS ?=

# scripts/build-release: static Swift stdlib and libstdc++, no $ORIGIN run path, identical code folded, code
# nothing calls dropped (what scripts/bench measures).
SWIFT_BUILD = SWIFT=$(SWIFT) $(ROOT)/scripts/build-release \
	--package-path $(ROOT) --scratch-path $(SCRATCH)

# Nothing here works around glibc: the sources keep the bootstrap within Amazon Linux 2023's glibc
# 2.34 (Sources/PlatformSupport/GlibcCompat.swift defines hypotf, which the static Swift standard
# library would otherwise import as hypotf@GLIBC_2.35), and scripts/check-al2023 proves it.
ARCH := $(shell uname -m)

.PHONY: build-AuthSigninFunction build-AuthRefreshFunction build-AuthLinkFunction all clean-sam

build-AuthSigninFunction:
	$(call package,auth-signin)

build-AuthRefreshFunction:
	$(call package,auth-refresh)

build-AuthLinkFunction:
	$(call package,auth-link)

# Builds the three into .aws-sam/make/<LogicalId>/ without sam (a quick look; sam build is the real thing).
all:
	$(MAKE) -f $(ROOT)/Makefile build-AuthSigninFunction ARTIFACTS_DIR=$(ROOT)/.aws-sam/make/AuthSigninFunction
	$(MAKE) -f $(ROOT)/Makefile build-AuthRefreshFunction ARTIFACTS_DIR=$(ROOT)/.aws-sam/make/AuthRefreshFunction
	$(MAKE) -f $(ROOT)/Makefile build-AuthLinkFunction ARTIFACTS_DIR=$(ROOT)/.aws-sam/make/AuthLinkFunction

clean-sam:
	rm -rf $(SCRATCH) $(ROOT)/.aws-sam

# $(1): the SwiftPM product. Fails loudly if ARTIFACTS_DIR is not set (sam always sets it).
define package
	@test -n "$(ARTIFACTS_DIR)" || { echo "ARTIFACTS_DIR is not set: run through sam build (or make all)" >&2; exit 2; }
	$(SWIFT_BUILD) --product $(1)
	@mkdir -p "$(ARTIFACTS_DIR)"
	@rm -rf "$(ARTIFACTS_DIR)/bootstrap" "$(ARTIFACTS_DIR)/lib"
	$(STRIP) --strip-all -o "$(ARTIFACTS_DIR)/bootstrap" "$(SCRATCH)/release/$(1)"
	@chmod 755 "$(ARTIFACTS_DIR)/bootstrap"
	@if [ -n "$(strip $(EXTRA_LIBS))" ]; then mkdir -p "$(ARTIFACTS_DIR)/lib" && cp -L $(EXTRA_LIBS) "$(ARTIFACTS_DIR)/lib/"; fi
	@zip_tmp=$$(mktemp -d) && (cd "$(ARTIFACTS_DIR)" && zip -q -r -X -9 "$$zip_tmp/code.zip" .) && \
	  echo "$(1): bootstrap $$(wc -c < "$(ARTIFACTS_DIR)/bootstrap") bytes, zip $$(wc -c < "$$zip_tmp/code.zip") bytes ($(ARCH))" && \
	  rm -rf "$$zip_tmp"
endef
