(module
  (type (;0;) (func (param i64 i32) (result i64 i32)))
  (type (;1;) (func (param i32) (result i64)))
  (type (;2;) (func (param i64) (result i64)))
  (type (;3;) (func (param i32) (result i32)))
  (type (;4;) (func (result i32)))
  (import "gate.internal" "refuel" (func (;0;) (type 4)))
  (func (;1;) (type 1) (param i32) (result i64)
    (local i32 i32)
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
    i64.const 0
    i32.const 0
    loop (param i64 i32) (result i64 i32)  ;; label = @1
      global.get 0
      i32.const 13
      i32.sub
      global.set 0
      global.get 0
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        call 0
        global.set 0
      end
      local.set 1
      i32.const 0
      local.set 2
      loop (param i64) (result i64)  ;; label = @2
        global.get 0
        i32.const 14
        i32.sub
        global.set 0
        global.get 0
        i32.const 0
        i32.lt_s
        if  ;; label = @3
          call 0
          global.set 0
        end
        local.get 1
        i64.extend_i32_u
        local.get 2
        i64.extend_i32_u
        i64.mul
        i64.add
        local.get 2
        i32.const 1
        i32.add
        local.tee 2
        local.get 0
        i32.lt_u
        br_if 0 (;@2;)
      end
      local.get 1
      i32.const 1
      i32.add
      local.tee 1
      local.get 1
      local.get 0
      i32.lt_u
      br_if 0 (;@1;)
    end
    drop)
  (func (;2;) (type 3) (param i32) (result i32)
    (local i32)
    global.get 0
    i32.const 3
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
      i32.const 12
      i32.sub
      global.set 0
      global.get 0
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        call 0
        global.set 0
      end
      local.get 1
      i32.const 1664525
      i32.mul
      i32.const 1013904223
      i32.add
      local.set 1
      local.get 0
      i32.const 1
      i32.sub
      local.tee 0
      br_if 0 (;@1;)
    end
    local.get 1)
  (func (;3;) (type 3) (param i32) (result i32)
    global.get 0
    i32.const 18
    i32.sub
    global.set 0
    global.get 0
    i32.const 0
    i32.lt_s
    if  ;; label = @1
      call 0
      global.set 0
    end
    block  ;; label = @1
      block  ;; label = @2
        block  ;; label = @3
          block  ;; label = @4
            local.get 0
            br_table 0 (;@4;) 1 (;@3;) 2 (;@2;) 3 (;@1;)
          end
          i32.const 10
          return
        end
        i32.const 20
        return
      end
      i32.const 30
      return
    end
    i32.const 99)
  (func (;4;) (type 3) (param i32) (result i32)
    (local i32)
    global.get 0
    i32.const 3
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
      i32.const 12
      i32.sub
      global.set 0
      global.get 0
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        call 0
        global.set 0
      end
      local.get 0
      i32.const 1
      i32.sub
      local.set 0
      local.get 1
      local.get 0
      call 3
      i32.add
      local.set 1
      local.get 0
      br_if 0 (;@1;)
    end
    local.get 1)
  (global (;0;) (mut i32) (i32.const 131072))
  (export "nested" (func 1))
  (export "spin" (func 2))
  (export "classify" (func 3))
  (export "classify_sum" (func 4)))
