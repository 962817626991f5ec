(module
  (type (;0;) (func (result i32)))
  (type (;1;) (func (param i32) (result i32)))
  (type (;2;) (func (param i32)))
  (type (;3;) (func (param i32 i32 i32)))
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
      call 6
      i32.const 8192
      i32.const 100
      i32.const 3000
      call 7
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
    call 6)
  (func (;6;) (type 3) (param i32 i32 i32)
    block  ;; label = @1
      local.get 2
      i32.const 65536
      i32.le_u
      br_if 0 (;@1;)
      local.get 0
      i64.extend_i32_u
      local.get 2
      i64.extend_i32_u
      i64.add
      memory.size
      i64.extend_i32_u
      i64.const 16
      i64.shl
      i64.gt_u
      if  ;; label = @2
        local.get 0
        local.get 1
        local.get 2
        memory.fill
        unreachable
      end
      loop  ;; label = @2
        global.get 0
        i32.const 16384
        i32.sub
        global.set 0
        global.get 0
        i32.const 0
        i32.lt_s
        if  ;; label = @3
          call 0
          global.set 0
        end
        local.get 0
        local.get 1
        i32.const 65536
        memory.fill
        local.get 0
        i32.const 65536
        i32.add
        local.set 0
        local.get 2
        i32.const 65536
        i32.sub
        local.tee 2
        i32.const 65536
        i32.gt_u
        br_if 0 (;@2;)
      end
    end
    global.get 0
    local.get 2
    i32.const 2
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
    local.get 0
    local.get 1
    local.get 2
    memory.fill)
  (func (;7;) (type 3) (param i32 i32 i32)
    block  ;; label = @1
      local.get 2
      i32.const 65536
      i32.le_u
      br_if 0 (;@1;)
      local.get 0
      local.get 1
      local.get 0
      local.get 1
      i32.gt_u
      select
      i64.extend_i32_u
      local.get 2
      i64.extend_i32_u
      i64.add
      memory.size
      i64.extend_i32_u
      i64.const 16
      i64.shl
      i64.gt_u
      if  ;; label = @2
        local.get 0
        local.get 1
        local.get 2
        memory.copy
        unreachable
      end
      local.get 0
      local.get 1
      i32.gt_u
      if  ;; label = @2
        loop  ;; label = @3
          global.get 0
          i32.const 16384
          i32.sub
          global.set 0
          global.get 0
          i32.const 0
          i32.lt_s
          if  ;; label = @4
            call 0
            global.set 0
          end
          local.get 2
          i32.const 65536
          i32.sub
          local.set 2
          local.get 0
          local.get 2
          i32.add
          local.get 1
          local.get 2
          i32.add
          i32.const 65536
          memory.copy
          local.get 2
          i32.const 65536
          i32.gt_u
          br_if 0 (;@3;)
        end
      else
        loop  ;; label = @3
          global.get 0
          i32.const 16384
          i32.sub
          global.set 0
          global.get 0
          i32.const 0
          i32.lt_s
          if  ;; label = @4
            call 0
            global.set 0
          end
          local.get 0
          local.get 1
          i32.const 65536
          memory.copy
          local.get 0
          i32.const 65536
          i32.add
          local.set 0
          local.get 1
          i32.const 65536
          i32.add
          local.set 1
          local.get 2
          i32.const 65536
          i32.sub
          local.tee 2
          i32.const 65536
          i32.gt_u
          br_if 0 (;@3;)
        end
      end
    end
    global.get 0
    local.get 2
    i32.const 2
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
    local.get 0
    local.get 1
    local.get 2
    memory.copy)
  (table (;0;) 4 funcref)
  (memory (;0;) 1 4)
  (global (;0;) (mut i32) (i32.const 131072))
  (export "churn" (func 2))
  (export "tables" (func 3))
  (export "grow" (func 4))
  (export "fill" (func 5))
  (elem (;0;) func 1 1 1 1)
  (data (;0;) "0123456789abcdef"))
