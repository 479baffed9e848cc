# The two commands a fresh machine needs: `make run` and `make test`.
CARGO ?= cargo

.PHONY: run test test-nojail lint cross cycles bench bench-jail e2e build install package man

run: ## Judge the Wikipedia sample puzzle (prints 8)
	$(CARGO) run --release --quiet -- examples/beast/wikipedia.txt

# Three test threads on two cores: many integration tests wait on a process (a timeout, a
# jail), and a third thread fills that time (112 s against 121 s for the integration tests).
test: ## Every unit, integration, property and example test
	$(CARGO) test --workspace --lib --bins --tests --quiet -- --test-threads 3
	$(CARGO) test --workspace --doc --quiet

test-nojail: ## The check tests on a build without the jail (as on macOS and Windows); CI runs it after make test
	$(CARGO) test --no-default-features --test tests --quiet check_cli

lint: ## Formatting, clippy and rustdoc (warnings denied), the cross builds, no import circle
	$(CARGO) fmt --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy --no-default-features --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --quiet
	$(MAKE) --no-print-directory cycles
	$(MAKE) --no-print-directory cross

# The other systems `beast` builds for. `make cross` only compiles (no linker, no run).
CROSS_TARGETS ?= x86_64-pc-windows-gnu x86_64-apple-darwin

cross: ## cargo check and clippy (warnings denied) for Windows and macOS, with and without the default features; a target rustup has not installed is skipped, saying so
	@if ! command -v rustup >/dev/null 2>&1; then \
		echo "make cross: skipping $(CROSS_TARGETS): no rustup to list the installed targets"; \
		exit 0; \
	fi; \
	installed="$$(rustup target list --installed)"; \
	for t in $(CROSS_TARGETS); do \
		if ! printf '%s\n' "$$installed" | grep -qx "$$t"; then \
			echo "make cross: skipping $$t: not installed (rustup target add $$t)"; \
			continue; \
		fi; \
		for f in "" --no-default-features; do \
			echo "make cross: $$t $${f:-(default features)}"; \
			$(CARGO) check --workspace --all-targets --quiet --target $$t $$f || exit 1; \
			$(CARGO) clippy --workspace --all-targets --quiet --target $$t $$f -- -D warnings || exit 1; \
		done; \
	done

cycles: ## No import circle among the modules of the engine or of the binary
	scripts/import-cycles crates/engine/src
	scripts/import-cycles src

e2e: ## Browser tests of the Ring Collector and replay pages in headless Chromium (installs chromium if missing)
	bash tests/e2e/run.sh

package: ## Both crates packaged and built from their .crate files, as crates.io would (nothing is published)
	@# Cargo unpacks the packaged engine into its registry cache to build the binary against
	@# it, and reuses that copy on the next run even when the engine has changed since (the
	@# version is the same): drop our own crate's copies first.
	rm -rf "$${CARGO_HOME:-$$HOME/.cargo}"/registry/src/*/beast-engine-[0-9]*
	$(CARGO) package --workspace

man: ## The manual pages: man/beast.1 and one a subcommand (man/beast-check.1, ...)
	$(CARGO) run --quiet -- man --out man

bench: ## Benchmarks (divan); not part of `make test`
	$(CARGO) bench --workspace

bench-jail: ## What `beast check` costs a case by sandbox, against a shell loop and bubblewrap (benches/jail-cost.sh: gcc, python3; interleaved rounds)
	benches/jail-cost.sh

build:
	$(CARGO) build --release

install:
	$(CARGO) install --path .
