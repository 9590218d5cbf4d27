// RUN: streamopt --split-input-file --verify-diagnostics --expand-moves %s

util.func public @require_alias(%device: !hal.device, %affinity: i64, %wait: !hal.fence, %signal: !hal.fence, %source: !hal.buffer, %size: index, %types: i32, %usage: i32) -> !hal.buffer {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  // expected-error @+1 {{'hal.device.queue.move' op requires aliasing (RequireAlias) and cannot be expanded into a copy}}
  %0 = hal.device.queue.move<%device : !hal.device> affinity(%affinity) wait(%wait) signal(%signal) source(%source : !hal.buffer)[%c0] pool(%c0_i64) type(%types) usage(%usage) flags("PreferOrigin|RequireAlias") : !hal.buffer{%size}
  util.return %0 : !hal.buffer
}
