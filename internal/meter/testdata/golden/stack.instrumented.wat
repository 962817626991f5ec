(module
  (type (;0;) (func (param i32) (result i32)))
  (type (;1;) (func (result i32)))
  (type (;2;) (func (param i32)))
  (import "gate.internal" "refuel" (func (;0;) (type 1)))
  (import "gate.internal" "trap" (func (;1;) (type 2)))
  (func (;2;) (type 0) (param i32) (result i32)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    global.get 0
    i32.const 13
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    global.get 1
    i32.const 119
    i32.add
    global.set 1
    global.get 1
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 1
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 0
      i32.eqz
      if (result i32)  ;; label = @2
        i32.const 0
      else
        local.get 0
        i32.const 1
        i32.sub
        call 2
        i32.const 1
        i32.add
      end
    end
    global.get 1
    i32.const 119
    i32.sub
    global.set 1)
  (func (;3;) (type 0) (param i32) (result i32)
    global.get 0
    i32.const 37
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    global.get 1
    i32.const 29
    i32.add
    global.set 1
    global.get 1
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 1
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 0
      i32.eqz
      if  ;; label = @2
        i32.const 0
        br 1 (;@1;)
      end
      local.get 0
      local.get 0
      local.get 0
      local.get 0
      local.get 0
      local.get 0
      local.get 0
      local.get 0
      local.get 0
      local.get 0
      local.get 0
      i32.const 1
      i32.sub
      call 3
      i32.add
      i32.add
      i32.add
      i32.add
      i32.add
      i32.add
      i32.add
      i32.add
      i32.add
      i32.add
      local.get 0
      i32.const 10
      i32.mul
      i32.sub
      i32.const 1
      i32.add
    end
    global.get 1
    i32.const 29
    i32.sub
    global.set 1)
  (func (;4;) (type 0) (param i32) (result i32)
    (local v128 v128 v128)
    global.get 0
    i32.const 19
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    global.get 1
    i32.const 27
    i32.add
    global.set 1
    global.get 1
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 1
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 0
      i32.eqz
      if  ;; label = @2
        i32.const 0
        br 1 (;@1;)
      end
      local.get 1
      v128.const i32x4 0x00000001 0x00000001 0x00000001 0x00000001
      i32x4.add
      drop
      local.get 0
      i32.const 1
      i32.sub
      i32.const 0
      call_indirect (type 0)
      i32.const 1
      i32.add
    end
    global.get 1
    i32.const 27
    i32.sub
    global.set 1)
  (func (;5;) (type 0) (param i32) (result i32)
    global.get 0
    i32.const 13
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    global.get 1
    i32.const 20
    i32.add
    global.set 1
    global.get 1
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 1
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 0
      i32.eqz
      if (result i32)  ;; label = @2
        i32.const 0
      else
        i32.const 1
        local.get 0
        i32.const 1
        i32.sub
        call 6
        i32.add
      end
    end
    global.get 1
    i32.const 20
    i32.sub
    global.set 1)
  (func (;6;) (type 0) (param i32) (result i32)
    (local i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32)
    global.get 0
    i32.const 13
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    global.get 1
    i32.const 40
    i32.add
    global.set 1
    global.get 1
    i32.const 262144
    i32.gt_u
    if  ;; label = @1
      i32.const 1
      call 1
      unreachable
    end
    block (result i32)  ;; label = @1
      local.get 0
      i32.eqz
      if (result i32)  ;; label = @2
        i32.const 0
      else
        i32.const 1
        local.get 0
        i32.const 1
        i32.sub
        call 5
        i32.add
      end
    end
    global.get 1
    i32.const 40
    i32.sub
    global.set 1)
  (table (;0;) 1 funcref)
  (global (;0;) (mut i32) (i32.const 131072))
  (global (;1;) (mut i32) (i32.const 0))
  (export "locals" (func 2))
  (export "operands" (func 3))
  (export "v128" (func 4))
  (export "even" (func 5))
  (elem (;0;) (i32.const 0) func 4))
