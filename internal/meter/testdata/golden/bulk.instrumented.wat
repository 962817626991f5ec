(module
  (type (;0;) (func (result i32)))
  (type (;1;) (func (param i32) (result i32)))
  (type (;2;) (func (param i32)))
  (import "gate.internal" "refuel" (func (;0;) (type 0)))
  (func (;1;) (type 0) (result i32)
    global.get 0
    i32.const 2
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    i32.const 7)
  (func (;2;) (type 1) (param i32) (result i32)
    (local i32 i32 i32)
    global.get 0
    i32.const 4
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    loop  ;; label = @1
      global.get 0
      i32.const 20
      i32.sub
      global.set 0
      global.get 0
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        call 0
        global.set 0
      end
      i32.const 0
      local.get 0
      i32.const 4096
      local.tee 3
      global.get 0
      local.get 3
      i32.const 8
      i32.shr_u
      i32.sub
      global.set 0
      global.get 0
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        call 0
        global.set 0
      end
      memory.fill
      i32.const 8192
      i32.const 100
      i32.const 3000
      local.tee 3
      global.get 0
      local.get 3
      i32.const 8
      i32.shr_u
      i32.sub
      global.set 0
      global.get 0
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        call 0
        global.set 0
      end
      memory.copy
      i32.const 20000
      local.get 0
      i32.add
      i32.const 0
      i32.const 16
      local.tee 3
      global.get 0
      local.get 3
      i32.const 8
      i32.shr_u
      i32.sub
      global.set 0
      global.get 0
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        call 0
        global.set 0
      end
      memory.init 0
      local.get 0
      i32.const 1
      i32.sub
      local.tee 0
      br_if 0 (;@1;)
    end
    loop  ;; label = @1
      global.get 0
      i32.const 15
      i32.sub
      global.set 0
      global.get 0
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        call 0
        global.set 0
      end
      local.get 2
      i32.const 31
      i32.mul
      local.get 1
      i32.load8_u
      i32.add
      local.set 2
      local.get 1
      i32.const 1
      i32.add
      local.tee 1
      i32.const 65536
      i32.lt_u
      br_if 0 (;@1;)
    end
    local.get 2)
  (func (;3;) (type 0) (result i32)
    (local i32)
    global.get 0
    i32.const 21
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    ref.null func
    i32.const 4
    local.tee 0
    global.get 0
    local.get 0
    i32.const 4
    i32.shr_u
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    table.grow 0
    drop
    i32.const 0
    i32.const 0
    i32.const 4
    local.tee 0
    global.get 0
    local.get 0
    i32.const 4
    i32.shr_u
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    table.init 0
    i32.const 4
    i32.const 0
    i32.const 4
    local.tee 0
    global.get 0
    local.get 0
    i32.const 4
    i32.shr_u
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    table.copy
    i32.const 6
    ref.func 1
    i32.const 2
    local.tee 0
    global.get 0
    local.get 0
    i32.const 4
    i32.shr_u
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    table.fill 0
    table.size 0
    i32.const 7
    call_indirect (type 0)
    i32.add)
  (func (;4;) (type 0) (result i32)
    global.get 0
    i32.const 16388
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    i32.const 1
    memory.grow
    drop
    memory.size)
  (func (;5;) (type 2) (param i32)
    (local i32)
    global.get 0
    i32.const 5
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    i32.const 0
    i32.const 1
    local.get 0
    local.tee 1
    global.get 0
    local.get 1
    i32.const 8
    i32.shr_u
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    memory.fill)
  (table (;0;) 4 funcref)
  (memory (;0;) 1 4)
  (global (;0;) (mut i32) (i32.const 131072))
  (export "churn" (func 2))
  (export "tables" (func 3))
  (export "grow" (func 4))
  (export "fill" (func 5))
  (elem (;0;) func 1 1 1 1)
  (data (;0;) "0123456789abcdef"))
