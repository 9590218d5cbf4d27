// RUN: streamopt --split-input-file --verify-diagnostics %s

// A count no input could hold is reported, not allocated.
util.func public @huge_count() {
  // expected-error @+1 {{too many results in a result group: 99999999999999999999}}
  %r:99999999999999999999 = test.many
  util.return
}

// -----

util.func public @zero_count() {
  // expected-error @+1 {{expected a positive number of results}}
  %r:0 = test.none
  util.return
}
