;; One function per family of immediates, to exercise the instruction decoder.
(module
  (type $pair (func (param i32) (result i32 i32)))
  (type $v (func))
  (table $t 2 funcref)
  (table $t2 2 externref)
  (table $t3 2 funcref)
  (memory 1)
  (global $g (mut i32) (i32.const 0))
  (data $d "xyz")
  (elem $e func $control)
  (func $control (param i32) (result i32)
    block $out (result i32)
      block $a
        block $b
          local.get 0
          br_table $a $b $a
        end
      end
      local.get 0
      loop $l (param i32) (result i32 i32)
        local.get 0
        i32.eqz
        br_if $l
        i32.const 1
      end
      drop
      drop
      local.get 0
      if (result i32)
        i32.const 1
      else
        i32.const 2
        br 2
      end
      i32.const 0
      call_indirect $t3 (type $v)
      local.get 0
      i32.const 1
      call_indirect (type $pair)
      select (result i32)
      i32.const 1
      i32.const 2
      i32.const 3
      select
      drop
      return
    end)
  (func $vars (param i32) (local i64 f32) (local.set 1 (i64.const -1)) (local.tee 2 (f32.const 1))
    (drop) (global.set $g (global.get $g)) (nop) (unreachable))
  (func $memory (param i32) (result i32)
    (i32.store offset=4 align=2 (i32.const 0) (i32.load8_u offset=100000 (local.get 0)))
    (i64.store32 (i32.const 0) (i64.load16_s (i32.const 0)))
    (f64.store (i32.const 8) (f64.load (i32.const 8)))
    (drop (memory.grow (memory.size)))
    (memory.init $d (i32.const 0) (i32.const 0) (i32.const 3))
    (data.drop $d)
    (memory.copy (i32.const 0) (i32.const 1) (i32.const 2))
    (memory.fill (i32.const 0) (i32.const 1) (i32.const 2))
    (i32.const 0))
  (func $tables
    (table.set $t (i32.const 0) (table.get $t (i32.const 1)))
    (table.init $t $e (i32.const 0) (i32.const 0) (i32.const 1))
    (elem.drop $e)
    (table.copy $t $t (i32.const 0) (i32.const 1) (i32.const 1))
    (drop (table.grow $t2 (ref.null extern) (i32.const 1)))
    (drop (table.size $t2))
    (table.fill $t (i32.const 0) (ref.func $control) (i32.const 1))
    (drop (ref.is_null (ref.null func))))
  (func $numeric (param f32 f64) (result i64)
    (drop (i32.trunc_sat_f32_s (local.get 0)))
    (drop (i64.trunc_sat_f64_u (local.get 1)))
    (drop (i32.extend8_s (i32.const 300)))
    (drop (f64.promote_f32 (f32.demote_f64 (local.get 1))))
    (i64.extend32_s (i64.const 0x7fffffffffff)))
  (func $simd (result i32)
    (v128.store offset=16 (i32.const 0) (v128.load align=8 (i32.const 0)))
    (drop (v128.load32_zero (i32.const 0)))
    (drop (v128.load8_lane 3 (i32.const 0) (v128.const i64x2 1 2)))
    (v128.store16_lane offset=2 7 (i32.const 0) (v128.const i32x4 1 2 3 4))
    (drop (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 (v128.const i64x2 0 0) (v128.const i64x2 0 0)))
    (drop (i32x4.replace_lane 1 (v128.const i32x4 0 0 0 0) (i32.const 5)))
    (drop (i16x8.abs (v128.const i16x8 -1 2 -3 4 -5 6 -7 8)))
    (drop (i32x4.dot_i16x8_s (v128.const i64x2 0 0) (v128.const i64x2 0 0)))
    (drop (f64x2.promote_low_f32x4 (v128.const f32x4 1 2 3 4)))
    (i8x16.extract_lane_u 15 (i8x16.splat (i32.const 9))))
)
