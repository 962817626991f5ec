(module $names
  (type (;0;) (func (param i32 i32) (result i32)))
  (type (;1;) (func (param i32) (result i32)))
  (type (;2;) (func (result i32)))
  (import "env" "add" (func $add (type 0)))
  (import "gate.internal" "refuel" (func (;1;) (type 2)))
  (func $boom (type 1) (param i32) (result i32)
    global.get 0
    i32.const 2
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 0
    end
    unreachable)
  (func $middle (type 1) (param i32) (result i32)
    global.get 0
    i32.const 3
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
    call $boom)
  (func $outer (type 2) (result i32)
    global.get 0
    i32.const 3
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 0
    end
    i32.const 1
    call $middle)
  (global (;0;) (mut i32) (i32.const 131072))
  (export "outer" (func $outer)))
