// Every util/arith/scf/cf form streamopt models, in the form iree-opt prints it: streamopt must
// print it back byte for byte (value names, block predecessor comments, MLIR's odd spacing
// included), and iree-opt must read streamopt's output back to the same text.
// The diffs come last: lit's out-of-process `diff` overwrites PYTHONPATH for later RUN lines.
// RUN: iree-opt --split-input-file %s -o %t.expected
// RUN: streamopt --split-input-file %s -o %t.actual
// RUN: streamopt --split-input-file %s | iree-opt --split-input-file -o %t.reparsed
// RUN: diff %t.expected %t.actual
// RUN: diff %t.expected %t.reparsed

module {
  util.global private @dev_a : !hal.device
  util.global private mutable @g : !stream.resource<variable>
  util.global public @h = 5 : index
  util.global private mutable @k {foo.bar} = 5 : i32
  util.initializer {
    %c1 = arith.constant 1 : index
    %0 = util.null : !hal.fence
    util.return
  }
  util.func private @callee(%arg0: !stream.resource<*>, %arg1: index) -> (%arg0, !stream.resource<*>)
  util.func public @f(%arg0: !stream.resource<*>, %arg1: index, %arg2: i32, %arg3: f32) -> index {
    %0:2 = util.call @callee(%arg0, %arg1) : (!stream.resource<*>, index) -> (%arg0, !stream.resource<*>)
    %g = util.global.load @g : !stream.resource<variable>
    %h = util.global.load immutable @h : index
    util.global.store %g, @g : !stream.resource<variable>
    %1:2 = util.optimization_barrier %arg1, %arg2 : index, i32
    %2 = arith.addi %arg1, %arg1 : index
    %3 = arith.addi %arg1, %arg1 overflow<nsw> : index
    %4 = arith.addi %arg1, %arg1 overflow<nsw, nuw> : index
    %5 = arith.subi %2, %2 : index
    %6 = arith.muli %2, %2 : index
    %7 = arith.divui %2, %2 : index
    %8 = arith.divsi %2, %2 : index
    %9 = arith.ceildivui %2, %2 : index
    %10 = arith.ceildivsi %2, %2 : index
    %11 = arith.remui %2, %2 : index
    %12 = arith.remsi %2, %2 : index
    %13 = arith.andi %arg2, %arg2 : i32
    %14 = arith.ori %arg2, %arg2 : i32
    %15 = arith.xori %arg2, %arg2 : i32
    %16 = arith.maxui %arg2, %arg2 : i32
    %17 = arith.minui %arg2, %arg2 : i32
    %18 = arith.maxsi %arg2, %arg2 : i32
    %19 = arith.minsi %arg2, %arg2 : i32
    %20 = arith.shli %arg2, %arg2 : i32
    %21 = arith.shrui %arg2, %arg2 : i32
    %22 = arith.shrsi %arg2, %arg2 : i32
    %23 = arith.index_cast %arg2 : i32 to index
    %24 = arith.index_castui %2 : index to i32
    %25 = arith.extui %arg2 : i32 to i64
    %26 = arith.extsi %arg2 : i32 to i64
    %27 = arith.trunci %25 : i64 to i32
    %28 = arith.trunci %25 overflow<nuw> : i64 to i32
    %29 = arith.cmpi eq, %2, %5 : index
    %30 = arith.cmpi ult, %arg2, %arg2 : i32
    %31 = arith.select %29, %2, %5 : index
    %32 = arith.addf %arg3, %arg3 : f32
    %33 = arith.mulf %arg3, %arg3 fastmath<fast> : f32
    %34 = arith.subf %arg3, %arg3 fastmath<nnan,ninf> : f32
    %35 = arith.divf %arg3, %arg3 {foo} : f32
    %36 = util.null : !hal.fence
    util.return %31 : index
  }
}

// -----
module {
  util.global private @"a b" : index
  util.global private @x.y : index
  util.global private @_0 : index
  util.func public @f(%arg0: index, %arg1: i1, %arg2: !stream.resource<*>) -> index {
    %a_b = util.global.load @"a b" : index
    %x.y = util.global.load @x.y : index
    %_0 = util.global.load @_0 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %0 = scf.if %arg1 -> (index) {
      scf.yield %arg0 : index
    } else {
      scf.yield %c0 : index
    }
    scf.if %arg1 {
      %7 = arith.addi %arg0, %arg0 : index
    }
    scf.if %arg1 {
      %7 = arith.addi %arg0, %arg0 : index
    } else {
      %7 = arith.addi %arg0, %arg0 : index
    }
    %1:2 = scf.if %arg1 -> (index, !stream.resource<*>) {
      scf.yield %arg0, %arg2 : index, !stream.resource<*>
    } else {
      scf.yield %c0, %arg2 : index, !stream.resource<*>
    }
    scf.for %arg3 = %c0 to %arg0 step %c1 {
      %7 = arith.addi %arg3, %arg3 : index
    }
    %2 = scf.for %arg3 = %c0 to %arg0 step %c1 iter_args(%arg4 = %c0) -> (index) {
      %7 = arith.addi %arg3, %arg4 : index
      scf.yield %7 : index
    }
    %3:2 = scf.for %arg3 = %c0 to %arg0 step %c1 iter_args(%arg4 = %c0, %arg5 = %arg2) -> (index, !stream.resource<*>) {
      %7 = arith.addi %arg3, %arg4 : index
      scf.yield %7, %arg5 : index, !stream.resource<*>
    }
    %c3_i32 = arith.constant 3 : i32
    scf.for %arg3 = %c3_i32 to %c3_i32 step %c3_i32  : i32 {
    }
    %4 = scf.while (%arg3 = %c0) : (index) -> index {
      %7 = arith.cmpi ult, %arg3, %arg0 : index
      scf.condition(%7) %arg3 : index
    } do {
    ^bb0(%arg3: index):
      %7 = arith.addi %arg3, %c1 : index
      scf.yield %7 : index
    }
    %5:2 = scf.while (%arg3 = %c0, %arg4 = %arg2) : (index, !stream.resource<*>) -> (index, !stream.resource<*>) {
      %7 = arith.cmpi ult, %arg3, %arg0 : index
      scf.condition(%7) %arg3, %arg4 : index, !stream.resource<*>
    } do {
    ^bb0(%arg3: index, %arg4: !stream.resource<*>):
      scf.yield %arg3, %arg4 : index, !stream.resource<*>
    }
    scf.while : () -> () {
      scf.condition(%arg1)
    } do {
      scf.yield
    }
    %6 = scf.index_switch %arg0 -> index 
    case 2 {
      scf.yield %c1 : index
    }
    case 5 {
      scf.yield %c0 : index
    }
    default {
      scf.yield %arg0 : index
    }
    scf.index_switch %arg0 
    default {
    }
    util.return %0 : index
  }
}

// -----
module {
  util.func public @f(%arg0: index, %arg1: i1, %arg2: !stream.resource<*>) -> index {
    %c0 = arith.constant 0 : index
    cf.br ^bb1(%arg0, %arg2 : index, !stream.resource<*>)
  ^bb1(%0: index, %1: !stream.resource<*>):  // 2 preds: ^bb0, ^bb2
    cf.cond_br %arg1, ^bb2, ^bb3(%0 : index)
  ^bb2:  // pred: ^bb1
    cf.cond_br %arg1, ^bb1(%0, %1 : index, !stream.resource<*>), ^bb3(%c0 : index) {foo}
  ^bb3(%2: index):  // 2 preds: ^bb1, ^bb2
    %3 = arith.index_cast %2 : index to i32
    cf.switch %3 : i32, [
      default: ^bb4(%2 : index),
      0: ^bb5,
      1: ^bb4(%c0 : index)
    ]
  ^bb4(%4: index):  // 2 preds: ^bb3, ^bb3
    cf.cond_br %arg1 weights([1, 2]), ^bb5, ^bb5
  ^bb5:  // 3 preds: ^bb3, ^bb4, ^bb4
    util.return %c0 : index
  }
  util.func public @g(%arg0: index, %arg1: i1) {
    %0 = arith.index_cast %arg0 : index to i32
    cf.switch %0 : i32, [
      default: ^bb1]
  ^bb1:  // pred: ^bb0
    cf.assert %arg1, "boom"
    util.return
  }
}

// -----
module {
  util.func public @f(%arg0: index, %arg1: i32, %arg2: f32, %arg3: vector<4xi32>, %arg4: vector<4xi1>) {
    %0 = arith.divui %arg0, %arg0 exact : index
    %1 = arith.shrui %arg1, %arg1 exact : i32
    %2 = arith.divsi %arg0, %arg0 exact : index
    %3 = arith.index_castui %arg0 nneg : index to i32
    %4 = arith.subf %arg2, %arg2 fastmath<nnan,ninf> : f32
    %5 = arith.addi %arg0, %arg0 : index
    %6 = arith.index_cast %arg0 : index to i32
    %7 = arith.select %arg4, %arg3, %arg3 : vector<4xi1>, vector<4xi32>
    %8 = arith.shli %arg1, %arg1 overflow<nuw> : i32
    %9 = arith.addi %arg0, %arg0 {foo} : index
    %10 = arith.addi %arg0, %arg0 overflow<nsw> {foo} : index
    %c-1_i32 = arith.constant -1 : i32
    %11 = arith.extui %arg1 nneg : i32 to i64
    util.return
  }
}

// -----
module {
  util.func public @f(%arg0: index, %arg1: i32) -> index {
    %0 = util.assume.int %arg0<umin = 0, umax = 10> : index
    %1:2 = util.assume.int 
        %arg0[<umin = 0, umax = 10, udiv = 16>, <udiv = 4>], 
        %arg1<umin = 1>
      : index, i32
    %2 = util.assume.int %arg0[] : index
    %3 = util.unfoldable_constant 4 : index
    %4 = scf.for unsigned %arg2 = %arg0 to %arg0 step %arg0 iter_args(%arg3 = %arg0) -> (index) {
      scf.yield %arg3 : index
    }
    util.return %0 : index
  }
}

// -----
module {
  util.global private @"1x" : index
  util.global private @"a+b" : index
  util.global private @"+b" : index
  util.global private @"a$-b" : index
  util.global private @c0 : index
  util.func public @f() -> index {
    %_1x = util.global.load @"1x" : index
    %a2Bb = util.global.load @"a+b" : index
    %_2Bb = util.global.load @"+b" : index
    %a$-b = util.global.load @"a$-b" : index
    %c0 = util.global.load @c0 : index
    %c0_0 = util.global.load @c0 : index
    %c0_1 = arith.constant 0 : index
    %0 = util.unfoldable_constant  {foo} 4 : index
    %1 = util.unfoldable_constant @c0 : index
    util.return %_1x : index
  }
}

// -----
module {
  util.func public @g(%arg0: i32, %arg1: index) {
    cf.switch %arg0 : i32, [
      default: ^bb1,
      -1: ^bb1,
      -1: ^bb1
    ]
  ^bb1:  // 3 preds: ^bb0, ^bb0, ^bb0
    %0:2 = scf.index_switch %arg1 {foo} -> index, i32 
    case -3 {
      scf.yield %arg1, %arg0 : index, i32
    }
    default {
      scf.yield %arg1, %arg0 : index, i32
    }
    util.return
  }
}

// -----
module {
  util.func private @a(%arg0: index, %arg1: index) -> index
  util.func private @b(%arg0: index, %arg1: index) -> (%arg1, index)
  util.func private @c(%arg0: index, %arg1: index) -> index
  util.func private @d(%arg0: index {a.foo}, %arg1: index) -> (index {a.bar}, %arg0)
}

