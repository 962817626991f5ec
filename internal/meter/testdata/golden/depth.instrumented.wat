(module
  (type (;0;) (func (result i32 i64)))
  (type (;1;) (func (param i32) (result i32)))
  (type (;2;) (func (param i32) (result i32 i64)))
  (type (;3;) (func (param i32) (result i64)))
  (type (;4;) (func (param i32) (result i64 i32 f64)))
  (type (;5;) (func (result i32)))
  (type (;6;) (func (param i32)))
  (type (;7;) (func (result i64 i32 f64)))
  (import "gate.internal" "refuel" (func (;0;) (type 5)))
  (import "gate.internal" "trap" (func (;1;) (type 6)))
  (func (;2;) (type 1) (param i32) (result i32)
    (local i32)
    global.get 0
    i32.const 22
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
    i32.const 21
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
      i32.const 0
      i32.lt_s
      if  ;; label = @2
        i32.const -1
        br 1 (;@1;)
      end
      block  ;; label = @2
        local.get 0
        i32.const 0
        i32.ne
        br_if 0 (;@2;)
        i32.const 100
        br 1 (;@1;)
      end
      block  ;; label = @2
        loop  ;; label = @3
          global.get 0
          i32.const 40
          i32.sub
          global.set 0
          global.get 0
          i32.const 0
          i32.lt_s
          if  ;; label = @4
            call 0
            global.set 0
          end
          local.get 1
          i32.const 3
          i32.gt_u
          br_if 1 (;@2;)
          local.get 0
          i32.const 1
          i32.eq
          if  ;; label = @4
            i32.const 200
            local.get 1
            i32.add
            br 3 (;@1;)
          end
          local.get 0
          i32.const 2
          i32.eq
          local.get 1
          i32.const 2
          i32.eq
          i32.and
          if  ;; label = @4
            i32.const 300
            br 3 (;@1;)
          else
            local.get 0
            i32.const 3
            i32.eq
            if  ;; label = @5
              i32.const 400
              local.get 1
              i32.add
              br 4 (;@1;)
            end
          end
          local.get 1
          i32.const 1
          i32.add
          local.set 1
          br 0 (;@3;)
        end
      end
      i32.const 500
      local.get 0
      i32.add
    end
    global.get 1
    i32.const 21
    i32.sub
    global.set 1)
  (func (;3;) (type 2) (param i32) (result i32 i64)
    global.get 0
    i32.const 7
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
    i32.const 19
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
    block (result i32 i64)  ;; label = @1
      block  ;; label = @2
        loop  ;; label = @3
          global.get 0
          i32.const 19
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
          i32.eqz
          if  ;; label = @4
            i32.const 7
            i64.const 70
            br 3 (;@1;)
          end
          block  ;; label = @4
            local.get 0
            i32.const 100
            i32.gt_u
            br_if 2 (;@2;)
          end
          local.get 0
          i32.const 1
          i32.sub
          local.set 0
          br 0 (;@3;)
        end
      end
      i32.const 8
      local.get 0
      i64.extend_i32_u
    end
    global.get 1
    i32.const 19
    i32.sub
    global.set 1)
  (func (;4;) (type 3) (param i32) (result i64)
    (local i64)
    global.get 0
    i32.const 9
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
    block (result i64)  ;; label = @1
      local.get 0
      call 3
      local.set 1
      i64.extend_i32_u
      i64.const 1000
      i64.mul
      local.get 1
      i64.add
    end
    global.get 1
    i32.const 20
    i32.sub
    global.set 1)
  (func (;5;) (type 4) (param i32) (result i64 i32 f64)
    global.get 0
    i32.const 11
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
    block (result i64 i32 f64)  ;; label = @1
      local.get 0
      if  ;; label = @2
        i64.const 1
        i32.const 2
        f64.const 0x1.cp+1 (;=3.5;)
        br 1 (;@1;)
      end
      i64.const 4
      i32.const 5
      f64.const 0x1.ap+2 (;=6.5;)
    end
    global.get 1
    i32.const 20
    i32.sub
    global.set 1)
  (func (;6;) (type 1) (param i32) (result i32)
    global.get 0
    i32.const 11
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
    i32.const 22
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
      i32.const 1000
      block (result i32)  ;; label = @2
        i32.const 2000
        block (result i32)  ;; label = @3
          loop  ;; label = @4
            global.get 0
            i32.const 17
            i32.sub
            global.set 0
            global.get 0
            i32.const 0
            i32.lt_s
            if  ;; label = @5
              call 0
              global.set 0
            end
            local.get 0
            i32.const 1
            i32.eq
            if  ;; label = @5
              i32.const 11
              br 4 (;@1;)
            end
            i32.const 12
            local.get 0
            i32.const 2
            i32.eq
            br_if 3 (;@1;)
            drop
            i32.const 13
            local.get 0
            br_table 2 (;@2;) 3 (;@1;) 3 (;@1;) 1 (;@3;) 3 (;@1;)
          end
          i32.const 14
        end
        i32.add
      end
      i32.add
    end
    global.get 1
    i32.const 22
    i32.sub
    global.set 1)
  (func (;7;) (type 2) (param i32) (result i32 i64)
    global.get 0
    i32.const 11
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
    block (result i32 i64)  ;; label = @1
      block (result i32 i64)  ;; label = @2
        i32.const 1
        i64.const 10
        local.get 0
        br_if 1 (;@1;)
        drop
        drop
        i32.const 2
        i64.const 20
      end
    end
    global.get 1
    i32.const 20
    i32.sub
    global.set 1)
  (func (;8;) (type 1) (param i32) (result i32)
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
    i32.const 19
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
        call 8
        i32.const 1
        i32.add
      end
    end
    global.get 1
    i32.const 19
    i32.sub
    global.set 1)
  (func (;9;) (type 1) (param i32) (result i32)
    global.get 0
    i32.const 14
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
    i32.const 19
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
      i32.const 1
      i32.sub
      i32.const 0
      call_indirect (type 1)
      i32.const 1
      i32.add
    end
    global.get 1
    i32.const 19
    i32.sub
    global.set 1)
  (func (;10;) (type 1) (param i32) (result i32)
    global.get 0
    i32.const 7
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
    i32.const 19
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
      i32.const 1
      i32.add
      call 10
      i32.const 1
      i32.add
    end
    global.get 1
    i32.const 19
    i32.sub
    global.set 1)
  (table (;0;) 1 funcref)
  (global (;0;) (mut i32) (i32.const 131072))
  (global (;1;) (mut i32) (i32.const 0))
  (export "ret" (func 2))
  (export "pair" (func 3))
  (export "pair_sum" (func 4))
  (export "triple" (func 5))
  (export "br" (func 6))
  (export "brpair" (func 7))
  (export "rec" (func 8))
  (export "recind" (func 9))
  (export "forever" (func 10))
  (elem (;0;) (i32.const 0) func 9))
