// Real IREE dumps (taken before the second ElideAsyncCopies run) through the elide pass and the
// lowering: every transfer that became a move is a stream.cmd.move, every other async op is
// gone, and values are freed after their last use.
//
// RUN: streamopt --elide-async-copies --lower-to-cmd %examples/two-devices.mlir | filecheck %s --check-prefix=TWO
// RUN: streamopt --elide-async-copies --lower-to-cmd %examples/iree/control-flow/before-elide-2.mlir | filecheck %s --check-prefix=CF

// import -> dispatch@A -> move A->B -> dispatch@B (reading a second import of the input)
// -> move B->A -> dispatch@A -> export.

// TWO-LABEL: util.func public @main
// TWO: %[[IN:.+]] = stream.tensor.import on(#hal.device.affinity<@dev_a>)
// TWO: %[[A:.+]], %[[A_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%c16}
// TWO-NEXT: %[[ON_A:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[A_T]]) => with(%[[IN]] as %{{.+}}, %[[A]] as %{{.+}})
// TWO: %[[B:.+]], %[[B_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[ON_A]]) => %[[A]] : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%c16} => !stream.timepoint
// TWO: %[[IN_B:.+]] = stream.tensor.import on(#hal.device.affinity<@dev_b>)
// TWO-NEXT: %[[B2:.+]], %[[B2_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) : !stream.resource<transient>{%c16}
// TWO-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[B2_T]], %[[B_T]])
// TWO-NEXT: %[[ON_B:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%[[J]]) => with(%[[B]] as %{{.+}}, %[[IN_B]] as %{{.+}}, %[[B2]] as %{{.+}})
// TWO: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_b>) await(%[[ON_B]]) => %[[B]]
// TWO-NEXT: %[[BACK:.+]], %[[BACK_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%[[FREE]]) => %[[B2]] : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c16}
// The last dispatch on dev_a follows dev_a's move (program order) and the value moved back.
// TWO: %[[OUT:.+]], %[[OUT_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%[[B_T]]) => !stream.resource<external>{%c16}
// TWO-NEXT: %[[J2:.+]] = stream.timepoint.join max(%[[OUT_T]], %[[BACK_T]])
// TWO-NEXT: %[[LAST:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[J2]]) => with(%[[BACK]] as %{{.+}}, %[[IN]] as %{{.+}}, %[[OUT]] as %{{.+}})
// TWO: stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[LAST]]) => %[[BACK]]
// TWO-NEXT: %[[READY:.+]] = stream.timepoint.await %[[LAST]] => %[[OUT]] : !stream.resource<external>{%c16}
// TWO-NEXT: stream.tensor.export on(#hal.device.affinity<@dev_a>) %[[READY]]
// TWO-NOT: stream.async.

// A round trip to dev_b in one branch of an scf.if, and one per iteration of an scf.for.

// CF-LABEL: util.func public @main
// CF: %[[IMM:.+]] = stream.timepoint.immediate
// CF: %[[IF:.+]]:4 = scf.if %{{.+}} -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint, !stream.timepoint) {
// CF: %[[BACK:.+]], %[[BACK_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%{{.+}}) => %{{.+}} : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<external>{%c16}
// CF-NEXT: scf.yield %[[BACK]], %[[BACK_T]], %[[BACK_T]], %[[IMM]]
// CF: } else {
// CF: scf.yield
// CF: %[[LOOP:.+]]:4 = scf.for %{{.+}} iter_args(%[[ACC:.+]] = %[[IF]]#0, %[[ACC_T:.+]] = %[[IF]]#1, %{{.+}} = %[[IF]]#3, %[[B_T:.+]] = %[[IF]]#2)
// CF-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[B_T]], %[[ACC_T]])
// CF-NEXT: %[[ON_B:.+]], %{{.+}} = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[J]]) => %[[ACC]]
// CF: stream.resource.dealloca on(#hal.device.affinity<@dev_b>) await(%{{.+}}) => %[[ON_B]]
// CF: stream.cmd.move origin on(#hal.device.affinity<@dev_b>)
// CF: scf.yield
// CF: %[[READY:.+]] = stream.timepoint.await %[[LOOP]]#1 => %[[LOOP]]#0 : !stream.resource<external>{%c16}
// CF-NEXT: stream.tensor.export %[[READY]]
// CF-NOT: stream.async.
