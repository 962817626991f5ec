(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (param i32 i32) (result i32)))
  (type (;2;) (func))
  (type (;3;) (func (result i32)))
  (type (;4;) (func (param i32)))
  (import "env" "add" (func (;0;) (type 1)))
  (import "gate.internal" "refuel" (func (;1;) (type 3)))
  (import "gate.internal" "trap" (func (;2;) (type 4)))
  (func (;3;) (type 0) (param i32) (result i32)
    global.get 2
    i32.const 4
    i32.sub
    global.set 2
    global.get 2
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 2
    end
    global.get 3
    i32.const 19
    i32.add
    global.set 3
    global.get 3
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 2
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 0
      i32.const 2
      i32.mul
    end
    global.get 3
    i32.const 19
    i32.sub
    global.set 3)
  (func (;4;) (type 0) (param i32) (result i32)
    global.get 2
    i32.const 4
    i32.sub
    global.set 2
    global.get 2
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 2
    end
    global.get 3
    i32.const 19
    i32.add
    global.set 3
    global.get 3
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 2
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 0
      local.get 0
      i32.mul
    end
    global.get 3
    i32.const 19
    i32.sub
    global.set 3)
  (func (;5;) (type 0) (param i32) (result i32)
    global.get 2
    i32.const 4
    i32.sub
    global.set 2
    global.get 2
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 2
    end
    global.get 3
    i32.const 19
    i32.add
    global.set 3
    global.get 3
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 2
      unreachable
    end
    block (result i32)  ;; label = @1
      i32.const 0
      local.get 0
      i32.sub
    end
    global.get 3
    i32.const 19
    i32.sub
    global.set 3)
  (func (;6;) (type 0) (param i32) (result i32)
    global.get 2
    i32.const 4
    i32.sub
    global.set 2
    global.get 2
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 2
    end
    global.get 3
    i32.const 19
    i32.add
    global.set 3
    global.get 3
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 2
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 0
      i32.const 1
      call 0
    end
    global.get 3
    i32.const 19
    i32.sub
    global.set 3)
  (func (;7;) (type 0) (param i32) (result i32)
    global.get 2
    i32.const 4
    i32.sub
    global.set 2
    global.get 2
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 2
    end
    global.get 3
    i32.const 19
    i32.add
    global.set 3
    global.get 3
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 2
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 0
      i32.const 1
      i32.sub
    end
    global.get 3
    i32.const 19
    i32.sub
    global.set 3)
  (func (;8;) (type 2)
    (local i32)
    global.get 2
    i32.const 17
    i32.sub
    global.set 2
    global.get 2
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 2
    end
    global.get 3
    i32.const 20
    i32.add
    global.set 3
    global.get 3
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 2
      unreachable
    end
    block  ;; label = @1
      i32.const 4
      i32.const 0
      i32.const 2
      local.tee 0
      global.get 2
      local.get 0
      i32.const 4
      i32.shr_u
      i32.sub
      global.set 2
      global.get 2
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        call 1
        global.set 2
      end
      table.init 1
      i32.const 3
      i32.const 0
      i32.const 3
      local.tee 0
      global.get 2
      local.get 0
      i32.const 4
      i32.shr_u
      i32.sub
      global.set 2
      global.get 2
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        call 1
        global.set 2
      end
      table.init 1 5
      i32.const 6
      global.get 0
      table.set 0
      i32.const 7
      ref.func 7
      table.set 0
      i32.const 1
      global.set 1
    end
    global.get 3
    i32.const 20
    i32.sub
    global.set 3)
  (func (;9;) (type 3) (result i32)
    global.get 2
    i32.const 2
    i32.sub
    global.set 2
    global.get 2
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 2
    end
    global.get 3
    i32.const 17
    i32.add
    global.set 3
    global.get 3
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 2
      unreachable
    end
    block (result i32)  ;; label = @1
      global.get 1
    end
    global.get 3
    i32.const 17
    i32.sub
    global.set 3)
  (func (;10;) (type 1) (param i32 i32) (result i32)
    global.get 2
    i32.const 4
    i32.sub
    global.set 2
    global.get 2
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 2
    end
    global.get 3
    i32.const 20
    i32.add
    global.set 3
    global.get 3
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 2
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 1
      local.get 0
      call_indirect (type 0)
    end
    global.get 3
    i32.const 20
    i32.sub
    global.set 3)
  (func (;11;) (type 1) (param i32 i32) (result i32)
    global.get 2
    i32.const 4
    i32.sub
    global.set 2
    global.get 2
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 2
    end
    global.get 3
    i32.const 20
    i32.add
    global.set 3
    global.get 3
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 2
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 1
      local.get 0
      call_indirect 1 (type 0)
    end
    global.get 3
    i32.const 20
    i32.sub
    global.set 3)
  (func (;12;) (type 0) (param i32) (result i32)
    global.get 2
    i32.const 7
    i32.sub
    global.set 2
    global.get 2
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 1
      global.set 2
    end
    global.get 3
    i32.const 19
    i32.add
    global.set 3
    global.get 3
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 2
      unreachable
    end
    block (result i32)  ;; label = @1
      i32.const 100
      local.get 0
      call_indirect (type 0)
      i32.const 100
      call 7
      i32.eq
    end
    global.get 3
    i32.const 19
    i32.sub
    global.set 3)
  (table (;0;) 8 1048576 funcref)
  (table (;1;) 8 1048576 funcref)
  (global (;0;) funcref (ref.func 4))
  (global (;1;) (mut i32) (i32.const 0))
  (global (;2;) (mut i32) (i32.const 131072))
  (global (;3;) (mut i32) (i32.const 0))
  (export "started" (func 9))
  (export "call0" (func 10))
  (export "call1" (func 11))
  (export "ref_is_dec" (func 12))
  (start 8)
  (elem (;0;) (i32.const 0) func 3 4)
  (elem (;1;) func 5 6)
  (elem (;2;) (table 1) (i32.const 0) func 6 7)
  (elem (;3;) declare func 7)
  (elem (;4;) (i32.const 2) funcref (ref.func 5) (ref.null func))
  (elem (;5;) funcref (ref.func 7) (ref.null func) (ref.func 3))
  (elem (;6;) (table 1) (i32.const 2) func 4)
  (elem (;7;) declare funcref (ref.func 6) (ref.null func)))
