(module
  (type (;0;) (func (param i32 i32) (result i32)))
  (type (;1;) (func (param i32) (result i32)))
  (type (;2;) (func (param i32) (result i64)))
  (type (;3;) (func (result i32)))
  (import "env" "add" (func (;0;) (type 0)))
  (import "gate.internal" "refuel" (func (;1;) (type 3)))
  (func (;2;) (type 1) (param i32) (result i32)
    global.get 0
    i32.const 17
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 0
    end
    local.get 0
    i32.const 2
    i32.lt_u
    if (result i32)  ;; label = @1
      local.get 0
    else
      local.get 0
      i32.const 1
      i32.sub
      call 2
      local.get 0
      i32.const 2
      i32.sub
      call 2
      call 0
    end)
  (func (;3;) (type 2) (param i32) (result i64)
    global.get 0
    i32.const 16
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 0
    end
    local.get 0
    i32.eqz
    if (result i64)  ;; label = @1
      i64.const 1
    else
      local.get 0
      i32.const 1
      i32.sub
      call 3
      local.get 0
      i32.const 1
      i32.sub
      call 3
      i64.add
    end)
  (global (;0;) (mut i32) (i32.const 131072))
  (export "fib" (func 2))
  (export "exp" (func 3)))
