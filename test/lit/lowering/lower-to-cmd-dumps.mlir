// Real IREE dumps (taken before the second ElideAsyncCopies run) through the elide pass and the
// lowering: every transfer that became a move is a stream.cmd.move, every other async op is
// gone, and values are freed after their last use.
//
// RUN: streamopt --elide-async-copies --lower-async-to-cmd %examples/two-devices.mlir | filecheck %s --check-prefix=TWO
// RUN: streamopt --elide-async-copies --lower-async-to-cmd %examples/iree/control-flow/before-elide-2.mlir | filecheck %s --check-prefix=CF

// import -> dispatch@A -> move A->B -> dispatch@B (reading a second import of the input)
// -> move B->A -> dispatch@A -> export.

// TWO-LABEL: util.func public @main
// TWO: %[[IN:.+]] = stream.tensor.import on(#hal.device.affinity<@dev_a>)
// TWO: %[[A:.+]], %[[A_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) : !stream.resource<transient>{%c16}
// TWO-NEXT: %[[ON_A:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[A_T]]) => with(%[[IN]] as %{{.+}}, %[[A]] as %{{.+}})
// TWO: %[[B:.+]], %[[B_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[ON_A]]) => %[[A]] : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_a>) -> to(#hal.device.affinity<@dev_b>) !stream.resource<transient>{%c16} => !stream.timepoint
// TWO: %[[IN_B:.+]] = stream.tensor.import on(#hal.device.affinity<@dev_b>)
// Moves run on their target: the allocation on dev_b follows the move there (program order).
// TWO-NEXT: %[[B2:.+]], %[[B2_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) await(%[[B_T]]) => !stream.resource<transient>{%c16}
// TWO-NEXT: %[[ON_B:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%[[B2_T]]) => with(%[[B]] as %{{.+}}, %[[IN_B]] as %{{.+}}, %[[B2]] as %{{.+}})
// TWO: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_b>) await(%[[ON_B]]) => %[[B]]
// The move back runs on dev_a: it waits for the dispatch writing its source (which follows
// everything before it on dev_a), not for the free on dev_b.
// TWO-NEXT: %[[BACK:.+]], %[[BACK_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%[[ON_B]]) => %[[B2]] : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<transient>{%c16}
// The last dispatch on dev_a follows dev_a's last op, the move back, which also makes its input.
// TWO: %[[OUT:.+]], %[[OUT_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_a>) await(%[[BACK_T]]) => !stream.resource<external>{%c16}
// TWO-NEXT: %[[LAST:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_a>) await(%[[OUT_T]]) => with(%[[BACK]] as %{{.+}}, %[[IN]] as %{{.+}}, %[[OUT]] as %{{.+}})
// TWO: stream.resource.dealloca on(#hal.device.affinity<@dev_a>) await(%[[LAST]]) => %[[BACK]]
// TWO-NEXT: %[[READY:.+]] = stream.timepoint.await %[[LAST]] => %[[OUT]] : !stream.resource<external>{%c16}
// TWO-NEXT: stream.tensor.export on(#hal.device.affinity<@dev_a>) %[[READY]]
// TWO-NOT: stream.async.

// A round trip to dev_b in one branch of an scf.if, and one per iteration of an scf.for.

// CF-LABEL: util.func public @main
// CF: %[[IMM:.+]] = stream.timepoint.immediate
// CF: %[[IF:.+]]:4 = scf.if %{{.+}} -> (!stream.resource<external>, !stream.timepoint, !stream.timepoint, !stream.timepoint) {
// CF: %[[FREE_B:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_b>)
// CF-NEXT: %[[BACK:.+]], %[[BACK_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_a>) await(%{{.+}}) => %{{.+}} : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> to(#hal.device.affinity<@dev_a>) !stream.resource<external>{%c16}
// The resource, its timepoint, then the last op on dev_b (the free) and on dev_a (the move
// back, which runs on its target).
// CF-NEXT: scf.yield %[[BACK]], %[[BACK_T]], %[[FREE_B]], %[[BACK_T]]
// CF: } else {
// Nothing ran on dev_b on this path; the dispatch runs on the default affinity, dev_a.
// CF: %[[ELSE:.+]] = stream.cmd.execute await(
// CF: scf.yield %{{.+}}, %[[ELSE]], %[[IMM]], %[[ELSE]]
// CF: %[[LOOP:.+]]:4 = scf.for %{{.+}} iter_args(%[[ACC:.+]] = %[[IF]]#0, %[[ACC_T:.+]] = %[[IF]]#1, %[[A_T:.+]] = %[[IF]]#3, %[[B_T:.+]] = %[[IF]]#2)
// CF-NEXT: %[[J:.+]] = stream.timepoint.join max(%[[B_T]], %[[ACC_T]])
// CF-NEXT: %[[ON_B:.+]], %[[ON_B_T:.+]] = stream.cmd.move origin on(#hal.device.affinity<@dev_b>) await(%[[J]]) => %[[ACC]]
// CF-NEXT: %[[NEW:.+]], %[[NEW_T:.+]] = stream.resource.alloca uninitialized on(#hal.device.affinity<@dev_b>) await(%[[ON_B_T]])
// CF-NEXT: %[[ON_B_DONE:.+]] = stream.cmd.execute on(#hal.device.affinity<@dev_b>) await(%[[NEW_T]]) => with(%[[ON_B]] as %{{.+}}, %[[NEW]] as %{{.+}})
// CF: %[[FREE:.+]] = stream.resource.dealloca on(#hal.device.affinity<@dev_b>) await(%[[ON_B_DONE]]) => %[[ON_B]]
// The move back has no to(...): its result goes to the default affinity, dev_a, and the move
// runs there, after dev_a's last op and the dispatch writing its source.
// CF-NEXT: %[[J2:.+]] = stream.timepoint.join max(%[[A_T]], %[[ON_B_DONE]])
// CF-NEXT: %[[BACK2:.+]], %{{.+}} = stream.cmd.move origin await(%[[J2]]) => %[[NEW]] : !stream.resource<transient>{%c16} from(#hal.device.affinity<@dev_b>) -> !stream.resource<transient>{%c16}
// CF: %[[FREE2:.+]] = stream.resource.dealloca origin await(%{{.+}}) => %[[BACK2]]
// CF-NEXT: scf.yield %{{.+}}, %{{.+}}, %[[FREE2]], %[[FREE]]
// CF: %[[READY:.+]] = stream.timepoint.await %[[LOOP]]#1 => %[[LOOP]]#0 : !stream.resource<external>{%c16}
// CF-NEXT: stream.tensor.export %[[READY]]
// CF-NOT: stream.async.
