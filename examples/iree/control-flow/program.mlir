// Transfers inside control flow: a round trip to dev_b in one branch of an scf.if, and one per
// iteration of an scf.for that carries the tensor between iterations.
func.func @main(%input: tensor<4xf32>, %flag: i32, %count: i32) -> tensor<4xf32> {
  %zero = arith.constant 0 : i32
  %take_b = arith.cmpi sgt, %flag, %zero : i32
  %first = scf.if %take_b -> tensor<4xf32> {
    %on_b = flow.tensor.transfer %input : tensor<4xf32> to #hal.device.promise<@dev_b>
    %squared_b = arith.mulf %on_b, %on_b : tensor<4xf32>
    %back = flow.tensor.transfer %squared_b : tensor<4xf32> to #hal.device.promise<@dev_a>
    scf.yield %back : tensor<4xf32>
  } else {
    %doubled = arith.addf %input, %input : tensor<4xf32>
    scf.yield %doubled : tensor<4xf32>
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %upper = arith.index_cast %count : i32 to index
  %result = scf.for %i = %c0 to %upper step %c1 iter_args(%acc = %first) -> tensor<4xf32> {
    %acc_b = flow.tensor.transfer %acc : tensor<4xf32> to #hal.device.promise<@dev_b>
    %step_b = arith.addf %acc_b, %acc_b : tensor<4xf32>
    %step = flow.tensor.transfer %step_b : tensor<4xf32> to #hal.device.promise<@dev_a>
    %next = arith.subf %step, %input : tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }
  return %result : tensor<4xf32>
}
