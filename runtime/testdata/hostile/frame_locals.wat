;; Recursion with 2,000 locals live in every frame. Each local gets a
;; different value before the recursive call and is read after it, so
;; wazero's compiler spills all 2,000 into the native frame (16 KB). A
;; call-depth limit of 10,000 let it take the native stack to wazero's
;; ceiling, ~100 MB grown by copying in Go code no deadline can interrupt:
;; 70-120 ms and 100 MB. Counted in stack slots, each frame weighs about
;; 2,000, and the probe traps after about 130 calls, within a few ms.
;;
;; The body repeats one pattern for k = 1..2000:
;;   before the call: i64.const 1  i64.add  local.tee k   (local k = n + k)
;;   after the call:  local.get k  i64.add                (sum them all)
(module
  (memory (export "memory") 1)
  (func $down (param $n i64) (result i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    local.get $n
    i64.const 1 i64.add local.tee 1  i64.const 1 i64.add local.tee 2  i64.const 1 i64.add local.tee 3  i64.const 1 i64.add local.tee 4  i64.const 1 i64.add local.tee 5
    i64.const 1 i64.add local.tee 6  i64.const 1 i64.add local.tee 7  i64.const 1 i64.add local.tee 8  i64.const 1 i64.add local.tee 9  i64.const 1 i64.add local.tee 10
    i64.const 1 i64.add local.tee 11  i64.const 1 i64.add local.tee 12  i64.const 1 i64.add local.tee 13  i64.const 1 i64.add local.tee 14  i64.const 1 i64.add local.tee 15
    i64.const 1 i64.add local.tee 16  i64.const 1 i64.add local.tee 17  i64.const 1 i64.add local.tee 18  i64.const 1 i64.add local.tee 19  i64.const 1 i64.add local.tee 20
    i64.const 1 i64.add local.tee 21  i64.const 1 i64.add local.tee 22  i64.const 1 i64.add local.tee 23  i64.const 1 i64.add local.tee 24  i64.const 1 i64.add local.tee 25
    i64.const 1 i64.add local.tee 26  i64.const 1 i64.add local.tee 27  i64.const 1 i64.add local.tee 28  i64.const 1 i64.add local.tee 29  i64.const 1 i64.add local.tee 30
    i64.const 1 i64.add local.tee 31  i64.const 1 i64.add local.tee 32  i64.const 1 i64.add local.tee 33  i64.const 1 i64.add local.tee 34  i64.const 1 i64.add local.tee 35
    i64.const 1 i64.add local.tee 36  i64.const 1 i64.add local.tee 37  i64.const 1 i64.add local.tee 38  i64.const 1 i64.add local.tee 39  i64.const 1 i64.add local.tee 40
    i64.const 1 i64.add local.tee 41  i64.const 1 i64.add local.tee 42  i64.const 1 i64.add local.tee 43  i64.const 1 i64.add local.tee 44  i64.const 1 i64.add local.tee 45
    i64.const 1 i64.add local.tee 46  i64.const 1 i64.add local.tee 47  i64.const 1 i64.add local.tee 48  i64.const 1 i64.add local.tee 49  i64.const 1 i64.add local.tee 50
    i64.const 1 i64.add local.tee 51  i64.const 1 i64.add local.tee 52  i64.const 1 i64.add local.tee 53  i64.const 1 i64.add local.tee 54  i64.const 1 i64.add local.tee 55
    i64.const 1 i64.add local.tee 56  i64.const 1 i64.add local.tee 57  i64.const 1 i64.add local.tee 58  i64.const 1 i64.add local.tee 59  i64.const 1 i64.add local.tee 60
    i64.const 1 i64.add local.tee 61  i64.const 1 i64.add local.tee 62  i64.const 1 i64.add local.tee 63  i64.const 1 i64.add local.tee 64  i64.const 1 i64.add local.tee 65
    i64.const 1 i64.add local.tee 66  i64.const 1 i64.add local.tee 67  i64.const 1 i64.add local.tee 68  i64.const 1 i64.add local.tee 69  i64.const 1 i64.add local.tee 70
    i64.const 1 i64.add local.tee 71  i64.const 1 i64.add local.tee 72  i64.const 1 i64.add local.tee 73  i64.const 1 i64.add local.tee 74  i64.const 1 i64.add local.tee 75
    i64.const 1 i64.add local.tee 76  i64.const 1 i64.add local.tee 77  i64.const 1 i64.add local.tee 78  i64.const 1 i64.add local.tee 79  i64.const 1 i64.add local.tee 80
    i64.const 1 i64.add local.tee 81  i64.const 1 i64.add local.tee 82  i64.const 1 i64.add local.tee 83  i64.const 1 i64.add local.tee 84  i64.const 1 i64.add local.tee 85
    i64.const 1 i64.add local.tee 86  i64.const 1 i64.add local.tee 87  i64.const 1 i64.add local.tee 88  i64.const 1 i64.add local.tee 89  i64.const 1 i64.add local.tee 90
    i64.const 1 i64.add local.tee 91  i64.const 1 i64.add local.tee 92  i64.const 1 i64.add local.tee 93  i64.const 1 i64.add local.tee 94  i64.const 1 i64.add local.tee 95
    i64.const 1 i64.add local.tee 96  i64.const 1 i64.add local.tee 97  i64.const 1 i64.add local.tee 98  i64.const 1 i64.add local.tee 99  i64.const 1 i64.add local.tee 100
    i64.const 1 i64.add local.tee 101  i64.const 1 i64.add local.tee 102  i64.const 1 i64.add local.tee 103  i64.const 1 i64.add local.tee 104  i64.const 1 i64.add local.tee 105
    i64.const 1 i64.add local.tee 106  i64.const 1 i64.add local.tee 107  i64.const 1 i64.add local.tee 108  i64.const 1 i64.add local.tee 109  i64.const 1 i64.add local.tee 110
    i64.const 1 i64.add local.tee 111  i64.const 1 i64.add local.tee 112  i64.const 1 i64.add local.tee 113  i64.const 1 i64.add local.tee 114  i64.const 1 i64.add local.tee 115
    i64.const 1 i64.add local.tee 116  i64.const 1 i64.add local.tee 117  i64.const 1 i64.add local.tee 118  i64.const 1 i64.add local.tee 119  i64.const 1 i64.add local.tee 120
    i64.const 1 i64.add local.tee 121  i64.const 1 i64.add local.tee 122  i64.const 1 i64.add local.tee 123  i64.const 1 i64.add local.tee 124  i64.const 1 i64.add local.tee 125
    i64.const 1 i64.add local.tee 126  i64.const 1 i64.add local.tee 127  i64.const 1 i64.add local.tee 128  i64.const 1 i64.add local.tee 129  i64.const 1 i64.add local.tee 130
    i64.const 1 i64.add local.tee 131  i64.const 1 i64.add local.tee 132  i64.const 1 i64.add local.tee 133  i64.const 1 i64.add local.tee 134  i64.const 1 i64.add local.tee 135
    i64.const 1 i64.add local.tee 136  i64.const 1 i64.add local.tee 137  i64.const 1 i64.add local.tee 138  i64.const 1 i64.add local.tee 139  i64.const 1 i64.add local.tee 140
    i64.const 1 i64.add local.tee 141  i64.const 1 i64.add local.tee 142  i64.const 1 i64.add local.tee 143  i64.const 1 i64.add local.tee 144  i64.const 1 i64.add local.tee 145
    i64.const 1 i64.add local.tee 146  i64.const 1 i64.add local.tee 147  i64.const 1 i64.add local.tee 148  i64.const 1 i64.add local.tee 149  i64.const 1 i64.add local.tee 150
    i64.const 1 i64.add local.tee 151  i64.const 1 i64.add local.tee 152  i64.const 1 i64.add local.tee 153  i64.const 1 i64.add local.tee 154  i64.const 1 i64.add local.tee 155
    i64.const 1 i64.add local.tee 156  i64.const 1 i64.add local.tee 157  i64.const 1 i64.add local.tee 158  i64.const 1 i64.add local.tee 159  i64.const 1 i64.add local.tee 160
    i64.const 1 i64.add local.tee 161  i64.const 1 i64.add local.tee 162  i64.const 1 i64.add local.tee 163  i64.const 1 i64.add local.tee 164  i64.const 1 i64.add local.tee 165
    i64.const 1 i64.add local.tee 166  i64.const 1 i64.add local.tee 167  i64.const 1 i64.add local.tee 168  i64.const 1 i64.add local.tee 169  i64.const 1 i64.add local.tee 170
    i64.const 1 i64.add local.tee 171  i64.const 1 i64.add local.tee 172  i64.const 1 i64.add local.tee 173  i64.const 1 i64.add local.tee 174  i64.const 1 i64.add local.tee 175
    i64.const 1 i64.add local.tee 176  i64.const 1 i64.add local.tee 177  i64.const 1 i64.add local.tee 178  i64.const 1 i64.add local.tee 179  i64.const 1 i64.add local.tee 180
    i64.const 1 i64.add local.tee 181  i64.const 1 i64.add local.tee 182  i64.const 1 i64.add local.tee 183  i64.const 1 i64.add local.tee 184  i64.const 1 i64.add local.tee 185
    i64.const 1 i64.add local.tee 186  i64.const 1 i64.add local.tee 187  i64.const 1 i64.add local.tee 188  i64.const 1 i64.add local.tee 189  i64.const 1 i64.add local.tee 190
    i64.const 1 i64.add local.tee 191  i64.const 1 i64.add local.tee 192  i64.const 1 i64.add local.tee 193  i64.const 1 i64.add local.tee 194  i64.const 1 i64.add local.tee 195
    i64.const 1 i64.add local.tee 196  i64.const 1 i64.add local.tee 197  i64.const 1 i64.add local.tee 198  i64.const 1 i64.add local.tee 199  i64.const 1 i64.add local.tee 200
    i64.const 1 i64.add local.tee 201  i64.const 1 i64.add local.tee 202  i64.const 1 i64.add local.tee 203  i64.const 1 i64.add local.tee 204  i64.const 1 i64.add local.tee 205
    i64.const 1 i64.add local.tee 206  i64.const 1 i64.add local.tee 207  i64.const 1 i64.add local.tee 208  i64.const 1 i64.add local.tee 209  i64.const 1 i64.add local.tee 210
    i64.const 1 i64.add local.tee 211  i64.const 1 i64.add local.tee 212  i64.const 1 i64.add local.tee 213  i64.const 1 i64.add local.tee 214  i64.const 1 i64.add local.tee 215
    i64.const 1 i64.add local.tee 216  i64.const 1 i64.add local.tee 217  i64.const 1 i64.add local.tee 218  i64.const 1 i64.add local.tee 219  i64.const 1 i64.add local.tee 220
    i64.const 1 i64.add local.tee 221  i64.const 1 i64.add local.tee 222  i64.const 1 i64.add local.tee 223  i64.const 1 i64.add local.tee 224  i64.const 1 i64.add local.tee 225
    i64.const 1 i64.add local.tee 226  i64.const 1 i64.add local.tee 227  i64.const 1 i64.add local.tee 228  i64.const 1 i64.add local.tee 229  i64.const 1 i64.add local.tee 230
    i64.const 1 i64.add local.tee 231  i64.const 1 i64.add local.tee 232  i64.const 1 i64.add local.tee 233  i64.const 1 i64.add local.tee 234  i64.const 1 i64.add local.tee 235
    i64.const 1 i64.add local.tee 236  i64.const 1 i64.add local.tee 237  i64.const 1 i64.add local.tee 238  i64.const 1 i64.add local.tee 239  i64.const 1 i64.add local.tee 240
    i64.const 1 i64.add local.tee 241  i64.const 1 i64.add local.tee 242  i64.const 1 i64.add local.tee 243  i64.const 1 i64.add local.tee 244  i64.const 1 i64.add local.tee 245
    i64.const 1 i64.add local.tee 246  i64.const 1 i64.add local.tee 247  i64.const 1 i64.add local.tee 248  i64.const 1 i64.add local.tee 249  i64.const 1 i64.add local.tee 250
    i64.const 1 i64.add local.tee 251  i64.const 1 i64.add local.tee 252  i64.const 1 i64.add local.tee 253  i64.const 1 i64.add local.tee 254  i64.const 1 i64.add local.tee 255
    i64.const 1 i64.add local.tee 256  i64.const 1 i64.add local.tee 257  i64.const 1 i64.add local.tee 258  i64.const 1 i64.add local.tee 259  i64.const 1 i64.add local.tee 260
    i64.const 1 i64.add local.tee 261  i64.const 1 i64.add local.tee 262  i64.const 1 i64.add local.tee 263  i64.const 1 i64.add local.tee 264  i64.const 1 i64.add local.tee 265
    i64.const 1 i64.add local.tee 266  i64.const 1 i64.add local.tee 267  i64.const 1 i64.add local.tee 268  i64.const 1 i64.add local.tee 269  i64.const 1 i64.add local.tee 270
    i64.const 1 i64.add local.tee 271  i64.const 1 i64.add local.tee 272  i64.const 1 i64.add local.tee 273  i64.const 1 i64.add local.tee 274  i64.const 1 i64.add local.tee 275
    i64.const 1 i64.add local.tee 276  i64.const 1 i64.add local.tee 277  i64.const 1 i64.add local.tee 278  i64.const 1 i64.add local.tee 279  i64.const 1 i64.add local.tee 280
    i64.const 1 i64.add local.tee 281  i64.const 1 i64.add local.tee 282  i64.const 1 i64.add local.tee 283  i64.const 1 i64.add local.tee 284  i64.const 1 i64.add local.tee 285
    i64.const 1 i64.add local.tee 286  i64.const 1 i64.add local.tee 287  i64.const 1 i64.add local.tee 288  i64.const 1 i64.add local.tee 289  i64.const 1 i64.add local.tee 290
    i64.const 1 i64.add local.tee 291  i64.const 1 i64.add local.tee 292  i64.const 1 i64.add local.tee 293  i64.const 1 i64.add local.tee 294  i64.const 1 i64.add local.tee 295
    i64.const 1 i64.add local.tee 296  i64.const 1 i64.add local.tee 297  i64.const 1 i64.add local.tee 298  i64.const 1 i64.add local.tee 299  i64.const 1 i64.add local.tee 300
    i64.const 1 i64.add local.tee 301  i64.const 1 i64.add local.tee 302  i64.const 1 i64.add local.tee 303  i64.const 1 i64.add local.tee 304  i64.const 1 i64.add local.tee 305
    i64.const 1 i64.add local.tee 306  i64.const 1 i64.add local.tee 307  i64.const 1 i64.add local.tee 308  i64.const 1 i64.add local.tee 309  i64.const 1 i64.add local.tee 310
    i64.const 1 i64.add local.tee 311  i64.const 1 i64.add local.tee 312  i64.const 1 i64.add local.tee 313  i64.const 1 i64.add local.tee 314  i64.const 1 i64.add local.tee 315
    i64.const 1 i64.add local.tee 316  i64.const 1 i64.add local.tee 317  i64.const 1 i64.add local.tee 318  i64.const 1 i64.add local.tee 319  i64.const 1 i64.add local.tee 320
    i64.const 1 i64.add local.tee 321  i64.const 1 i64.add local.tee 322  i64.const 1 i64.add local.tee 323  i64.const 1 i64.add local.tee 324  i64.const 1 i64.add local.tee 325
    i64.const 1 i64.add local.tee 326  i64.const 1 i64.add local.tee 327  i64.const 1 i64.add local.tee 328  i64.const 1 i64.add local.tee 329  i64.const 1 i64.add local.tee 330
    i64.const 1 i64.add local.tee 331  i64.const 1 i64.add local.tee 332  i64.const 1 i64.add local.tee 333  i64.const 1 i64.add local.tee 334  i64.const 1 i64.add local.tee 335
    i64.const 1 i64.add local.tee 336  i64.const 1 i64.add local.tee 337  i64.const 1 i64.add local.tee 338  i64.const 1 i64.add local.tee 339  i64.const 1 i64.add local.tee 340
    i64.const 1 i64.add local.tee 341  i64.const 1 i64.add local.tee 342  i64.const 1 i64.add local.tee 343  i64.const 1 i64.add local.tee 344  i64.const 1 i64.add local.tee 345
    i64.const 1 i64.add local.tee 346  i64.const 1 i64.add local.tee 347  i64.const 1 i64.add local.tee 348  i64.const 1 i64.add local.tee 349  i64.const 1 i64.add local.tee 350
    i64.const 1 i64.add local.tee 351  i64.const 1 i64.add local.tee 352  i64.const 1 i64.add local.tee 353  i64.const 1 i64.add local.tee 354  i64.const 1 i64.add local.tee 355
    i64.const 1 i64.add local.tee 356  i64.const 1 i64.add local.tee 357  i64.const 1 i64.add local.tee 358  i64.const 1 i64.add local.tee 359  i64.const 1 i64.add local.tee 360
    i64.const 1 i64.add local.tee 361  i64.const 1 i64.add local.tee 362  i64.const 1 i64.add local.tee 363  i64.const 1 i64.add local.tee 364  i64.const 1 i64.add local.tee 365
    i64.const 1 i64.add local.tee 366  i64.const 1 i64.add local.tee 367  i64.const 1 i64.add local.tee 368  i64.const 1 i64.add local.tee 369  i64.const 1 i64.add local.tee 370
    i64.const 1 i64.add local.tee 371  i64.const 1 i64.add local.tee 372  i64.const 1 i64.add local.tee 373  i64.const 1 i64.add local.tee 374  i64.const 1 i64.add local.tee 375
    i64.const 1 i64.add local.tee 376  i64.const 1 i64.add local.tee 377  i64.const 1 i64.add local.tee 378  i64.const 1 i64.add local.tee 379  i64.const 1 i64.add local.tee 380
    i64.const 1 i64.add local.tee 381  i64.const 1 i64.add local.tee 382  i64.const 1 i64.add local.tee 383  i64.const 1 i64.add local.tee 384  i64.const 1 i64.add local.tee 385
    i64.const 1 i64.add local.tee 386  i64.const 1 i64.add local.tee 387  i64.const 1 i64.add local.tee 388  i64.const 1 i64.add local.tee 389  i64.const 1 i64.add local.tee 390
    i64.const 1 i64.add local.tee 391  i64.const 1 i64.add local.tee 392  i64.const 1 i64.add local.tee 393  i64.const 1 i64.add local.tee 394  i64.const 1 i64.add local.tee 395
    i64.const 1 i64.add local.tee 396  i64.const 1 i64.add local.tee 397  i64.const 1 i64.add local.tee 398  i64.const 1 i64.add local.tee 399  i64.const 1 i64.add local.tee 400
    i64.const 1 i64.add local.tee 401  i64.const 1 i64.add local.tee 402  i64.const 1 i64.add local.tee 403  i64.const 1 i64.add local.tee 404  i64.const 1 i64.add local.tee 405
    i64.const 1 i64.add local.tee 406  i64.const 1 i64.add local.tee 407  i64.const 1 i64.add local.tee 408  i64.const 1 i64.add local.tee 409  i64.const 1 i64.add local.tee 410
    i64.const 1 i64.add local.tee 411  i64.const 1 i64.add local.tee 412  i64.const 1 i64.add local.tee 413  i64.const 1 i64.add local.tee 414  i64.const 1 i64.add local.tee 415
    i64.const 1 i64.add local.tee 416  i64.const 1 i64.add local.tee 417  i64.const 1 i64.add local.tee 418  i64.const 1 i64.add local.tee 419  i64.const 1 i64.add local.tee 420
    i64.const 1 i64.add local.tee 421  i64.const 1 i64.add local.tee 422  i64.const 1 i64.add local.tee 423  i64.const 1 i64.add local.tee 424  i64.const 1 i64.add local.tee 425
    i64.const 1 i64.add local.tee 426  i64.const 1 i64.add local.tee 427  i64.const 1 i64.add local.tee 428  i64.const 1 i64.add local.tee 429  i64.const 1 i64.add local.tee 430
    i64.const 1 i64.add local.tee 431  i64.const 1 i64.add local.tee 432  i64.const 1 i64.add local.tee 433  i64.const 1 i64.add local.tee 434  i64.const 1 i64.add local.tee 435
    i64.const 1 i64.add local.tee 436  i64.const 1 i64.add local.tee 437  i64.const 1 i64.add local.tee 438  i64.const 1 i64.add local.tee 439  i64.const 1 i64.add local.tee 440
    i64.const 1 i64.add local.tee 441  i64.const 1 i64.add local.tee 442  i64.const 1 i64.add local.tee 443  i64.const 1 i64.add local.tee 444  i64.const 1 i64.add local.tee 445
    i64.const 1 i64.add local.tee 446  i64.const 1 i64.add local.tee 447  i64.const 1 i64.add local.tee 448  i64.const 1 i64.add local.tee 449  i64.const 1 i64.add local.tee 450
    i64.const 1 i64.add local.tee 451  i64.const 1 i64.add local.tee 452  i64.const 1 i64.add local.tee 453  i64.const 1 i64.add local.tee 454  i64.const 1 i64.add local.tee 455
    i64.const 1 i64.add local.tee 456  i64.const 1 i64.add local.tee 457  i64.const 1 i64.add local.tee 458  i64.const 1 i64.add local.tee 459  i64.const 1 i64.add local.tee 460
    i64.const 1 i64.add local.tee 461  i64.const 1 i64.add local.tee 462  i64.const 1 i64.add local.tee 463  i64.const 1 i64.add local.tee 464  i64.const 1 i64.add local.tee 465
    i64.const 1 i64.add local.tee 466  i64.const 1 i64.add local.tee 467  i64.const 1 i64.add local.tee 468  i64.const 1 i64.add local.tee 469  i64.const 1 i64.add local.tee 470
    i64.const 1 i64.add local.tee 471  i64.const 1 i64.add local.tee 472  i64.const 1 i64.add local.tee 473  i64.const 1 i64.add local.tee 474  i64.const 1 i64.add local.tee 475
    i64.const 1 i64.add local.tee 476  i64.const 1 i64.add local.tee 477  i64.const 1 i64.add local.tee 478  i64.const 1 i64.add local.tee 479  i64.const 1 i64.add local.tee 480
    i64.const 1 i64.add local.tee 481  i64.const 1 i64.add local.tee 482  i64.const 1 i64.add local.tee 483  i64.const 1 i64.add local.tee 484  i64.const 1 i64.add local.tee 485
    i64.const 1 i64.add local.tee 486  i64.const 1 i64.add local.tee 487  i64.const 1 i64.add local.tee 488  i64.const 1 i64.add local.tee 489  i64.const 1 i64.add local.tee 490
    i64.const 1 i64.add local.tee 491  i64.const 1 i64.add local.tee 492  i64.const 1 i64.add local.tee 493  i64.const 1 i64.add local.tee 494  i64.const 1 i64.add local.tee 495
    i64.const 1 i64.add local.tee 496  i64.const 1 i64.add local.tee 497  i64.const 1 i64.add local.tee 498  i64.const 1 i64.add local.tee 499  i64.const 1 i64.add local.tee 500
    i64.const 1 i64.add local.tee 501  i64.const 1 i64.add local.tee 502  i64.const 1 i64.add local.tee 503  i64.const 1 i64.add local.tee 504  i64.const 1 i64.add local.tee 505
    i64.const 1 i64.add local.tee 506  i64.const 1 i64.add local.tee 507  i64.const 1 i64.add local.tee 508  i64.const 1 i64.add local.tee 509  i64.const 1 i64.add local.tee 510
    i64.const 1 i64.add local.tee 511  i64.const 1 i64.add local.tee 512  i64.const 1 i64.add local.tee 513  i64.const 1 i64.add local.tee 514  i64.const 1 i64.add local.tee 515
    i64.const 1 i64.add local.tee 516  i64.const 1 i64.add local.tee 517  i64.const 1 i64.add local.tee 518  i64.const 1 i64.add local.tee 519  i64.const 1 i64.add local.tee 520
    i64.const 1 i64.add local.tee 521  i64.const 1 i64.add local.tee 522  i64.const 1 i64.add local.tee 523  i64.const 1 i64.add local.tee 524  i64.const 1 i64.add local.tee 525
    i64.const 1 i64.add local.tee 526  i64.const 1 i64.add local.tee 527  i64.const 1 i64.add local.tee 528  i64.const 1 i64.add local.tee 529  i64.const 1 i64.add local.tee 530
    i64.const 1 i64.add local.tee 531  i64.const 1 i64.add local.tee 532  i64.const 1 i64.add local.tee 533  i64.const 1 i64.add local.tee 534  i64.const 1 i64.add local.tee 535
    i64.const 1 i64.add local.tee 536  i64.const 1 i64.add local.tee 537  i64.const 1 i64.add local.tee 538  i64.const 1 i64.add local.tee 539  i64.const 1 i64.add local.tee 540
    i64.const 1 i64.add local.tee 541  i64.const 1 i64.add local.tee 542  i64.const 1 i64.add local.tee 543  i64.const 1 i64.add local.tee 544  i64.const 1 i64.add local.tee 545
    i64.const 1 i64.add local.tee 546  i64.const 1 i64.add local.tee 547  i64.const 1 i64.add local.tee 548  i64.const 1 i64.add local.tee 549  i64.const 1 i64.add local.tee 550
    i64.const 1 i64.add local.tee 551  i64.const 1 i64.add local.tee 552  i64.const 1 i64.add local.tee 553  i64.const 1 i64.add local.tee 554  i64.const 1 i64.add local.tee 555
    i64.const 1 i64.add local.tee 556  i64.const 1 i64.add local.tee 557  i64.const 1 i64.add local.tee 558  i64.const 1 i64.add local.tee 559  i64.const 1 i64.add local.tee 560
    i64.const 1 i64.add local.tee 561  i64.const 1 i64.add local.tee 562  i64.const 1 i64.add local.tee 563  i64.const 1 i64.add local.tee 564  i64.const 1 i64.add local.tee 565
    i64.const 1 i64.add local.tee 566  i64.const 1 i64.add local.tee 567  i64.const 1 i64.add local.tee 568  i64.const 1 i64.add local.tee 569  i64.const 1 i64.add local.tee 570
    i64.const 1 i64.add local.tee 571  i64.const 1 i64.add local.tee 572  i64.const 1 i64.add local.tee 573  i64.const 1 i64.add local.tee 574  i64.const 1 i64.add local.tee 575
    i64.const 1 i64.add local.tee 576  i64.const 1 i64.add local.tee 577  i64.const 1 i64.add local.tee 578  i64.const 1 i64.add local.tee 579  i64.const 1 i64.add local.tee 580
    i64.const 1 i64.add local.tee 581  i64.const 1 i64.add local.tee 582  i64.const 1 i64.add local.tee 583  i64.const 1 i64.add local.tee 584  i64.const 1 i64.add local.tee 585
    i64.const 1 i64.add local.tee 586  i64.const 1 i64.add local.tee 587  i64.const 1 i64.add local.tee 588  i64.const 1 i64.add local.tee 589  i64.const 1 i64.add local.tee 590
    i64.const 1 i64.add local.tee 591  i64.const 1 i64.add local.tee 592  i64.const 1 i64.add local.tee 593  i64.const 1 i64.add local.tee 594  i64.const 1 i64.add local.tee 595
    i64.const 1 i64.add local.tee 596  i64.const 1 i64.add local.tee 597  i64.const 1 i64.add local.tee 598  i64.const 1 i64.add local.tee 599  i64.const 1 i64.add local.tee 600
    i64.const 1 i64.add local.tee 601  i64.const 1 i64.add local.tee 602  i64.const 1 i64.add local.tee 603  i64.const 1 i64.add local.tee 604  i64.const 1 i64.add local.tee 605
    i64.const 1 i64.add local.tee 606  i64.const 1 i64.add local.tee 607  i64.const 1 i64.add local.tee 608  i64.const 1 i64.add local.tee 609  i64.const 1 i64.add local.tee 610
    i64.const 1 i64.add local.tee 611  i64.const 1 i64.add local.tee 612  i64.const 1 i64.add local.tee 613  i64.const 1 i64.add local.tee 614  i64.const 1 i64.add local.tee 615
    i64.const 1 i64.add local.tee 616  i64.const 1 i64.add local.tee 617  i64.const 1 i64.add local.tee 618  i64.const 1 i64.add local.tee 619  i64.const 1 i64.add local.tee 620
    i64.const 1 i64.add local.tee 621  i64.const 1 i64.add local.tee 622  i64.const 1 i64.add local.tee 623  i64.const 1 i64.add local.tee 624  i64.const 1 i64.add local.tee 625
    i64.const 1 i64.add local.tee 626  i64.const 1 i64.add local.tee 627  i64.const 1 i64.add local.tee 628  i64.const 1 i64.add local.tee 629  i64.const 1 i64.add local.tee 630
    i64.const 1 i64.add local.tee 631  i64.const 1 i64.add local.tee 632  i64.const 1 i64.add local.tee 633  i64.const 1 i64.add local.tee 634  i64.const 1 i64.add local.tee 635
    i64.const 1 i64.add local.tee 636  i64.const 1 i64.add local.tee 637  i64.const 1 i64.add local.tee 638  i64.const 1 i64.add local.tee 639  i64.const 1 i64.add local.tee 640
    i64.const 1 i64.add local.tee 641  i64.const 1 i64.add local.tee 642  i64.const 1 i64.add local.tee 643  i64.const 1 i64.add local.tee 644  i64.const 1 i64.add local.tee 645
    i64.const 1 i64.add local.tee 646  i64.const 1 i64.add local.tee 647  i64.const 1 i64.add local.tee 648  i64.const 1 i64.add local.tee 649  i64.const 1 i64.add local.tee 650
    i64.const 1 i64.add local.tee 651  i64.const 1 i64.add local.tee 652  i64.const 1 i64.add local.tee 653  i64.const 1 i64.add local.tee 654  i64.const 1 i64.add local.tee 655
    i64.const 1 i64.add local.tee 656  i64.const 1 i64.add local.tee 657  i64.const 1 i64.add local.tee 658  i64.const 1 i64.add local.tee 659  i64.const 1 i64.add local.tee 660
    i64.const 1 i64.add local.tee 661  i64.const 1 i64.add local.tee 662  i64.const 1 i64.add local.tee 663  i64.const 1 i64.add local.tee 664  i64.const 1 i64.add local.tee 665
    i64.const 1 i64.add local.tee 666  i64.const 1 i64.add local.tee 667  i64.const 1 i64.add local.tee 668  i64.const 1 i64.add local.tee 669  i64.const 1 i64.add local.tee 670
    i64.const 1 i64.add local.tee 671  i64.const 1 i64.add local.tee 672  i64.const 1 i64.add local.tee 673  i64.const 1 i64.add local.tee 674  i64.const 1 i64.add local.tee 675
    i64.const 1 i64.add local.tee 676  i64.const 1 i64.add local.tee 677  i64.const 1 i64.add local.tee 678  i64.const 1 i64.add local.tee 679  i64.const 1 i64.add local.tee 680
    i64.const 1 i64.add local.tee 681  i64.const 1 i64.add local.tee 682  i64.const 1 i64.add local.tee 683  i64.const 1 i64.add local.tee 684  i64.const 1 i64.add local.tee 685
    i64.const 1 i64.add local.tee 686  i64.const 1 i64.add local.tee 687  i64.const 1 i64.add local.tee 688  i64.const 1 i64.add local.tee 689  i64.const 1 i64.add local.tee 690
    i64.const 1 i64.add local.tee 691  i64.const 1 i64.add local.tee 692  i64.const 1 i64.add local.tee 693  i64.const 1 i64.add local.tee 694  i64.const 1 i64.add local.tee 695
    i64.const 1 i64.add local.tee 696  i64.const 1 i64.add local.tee 697  i64.const 1 i64.add local.tee 698  i64.const 1 i64.add local.tee 699  i64.const 1 i64.add local.tee 700
    i64.const 1 i64.add local.tee 701  i64.const 1 i64.add local.tee 702  i64.const 1 i64.add local.tee 703  i64.const 1 i64.add local.tee 704  i64.const 1 i64.add local.tee 705
    i64.const 1 i64.add local.tee 706  i64.const 1 i64.add local.tee 707  i64.const 1 i64.add local.tee 708  i64.const 1 i64.add local.tee 709  i64.const 1 i64.add local.tee 710
    i64.const 1 i64.add local.tee 711  i64.const 1 i64.add local.tee 712  i64.const 1 i64.add local.tee 713  i64.const 1 i64.add local.tee 714  i64.const 1 i64.add local.tee 715
    i64.const 1 i64.add local.tee 716  i64.const 1 i64.add local.tee 717  i64.const 1 i64.add local.tee 718  i64.const 1 i64.add local.tee 719  i64.const 1 i64.add local.tee 720
    i64.const 1 i64.add local.tee 721  i64.const 1 i64.add local.tee 722  i64.const 1 i64.add local.tee 723  i64.const 1 i64.add local.tee 724  i64.const 1 i64.add local.tee 725
    i64.const 1 i64.add local.tee 726  i64.const 1 i64.add local.tee 727  i64.const 1 i64.add local.tee 728  i64.const 1 i64.add local.tee 729  i64.const 1 i64.add local.tee 730
    i64.const 1 i64.add local.tee 731  i64.const 1 i64.add local.tee 732  i64.const 1 i64.add local.tee 733  i64.const 1 i64.add local.tee 734  i64.const 1 i64.add local.tee 735
    i64.const 1 i64.add local.tee 736  i64.const 1 i64.add local.tee 737  i64.const 1 i64.add local.tee 738  i64.const 1 i64.add local.tee 739  i64.const 1 i64.add local.tee 740
    i64.const 1 i64.add local.tee 741  i64.const 1 i64.add local.tee 742  i64.const 1 i64.add local.tee 743  i64.const 1 i64.add local.tee 744  i64.const 1 i64.add local.tee 745
    i64.const 1 i64.add local.tee 746  i64.const 1 i64.add local.tee 747  i64.const 1 i64.add local.tee 748  i64.const 1 i64.add local.tee 749  i64.const 1 i64.add local.tee 750
    i64.const 1 i64.add local.tee 751  i64.const 1 i64.add local.tee 752  i64.const 1 i64.add local.tee 753  i64.const 1 i64.add local.tee 754  i64.const 1 i64.add local.tee 755
    i64.const 1 i64.add local.tee 756  i64.const 1 i64.add local.tee 757  i64.const 1 i64.add local.tee 758  i64.const 1 i64.add local.tee 759  i64.const 1 i64.add local.tee 760
    i64.const 1 i64.add local.tee 761  i64.const 1 i64.add local.tee 762  i64.const 1 i64.add local.tee 763  i64.const 1 i64.add local.tee 764  i64.const 1 i64.add local.tee 765
    i64.const 1 i64.add local.tee 766  i64.const 1 i64.add local.tee 767  i64.const 1 i64.add local.tee 768  i64.const 1 i64.add local.tee 769  i64.const 1 i64.add local.tee 770
    i64.const 1 i64.add local.tee 771  i64.const 1 i64.add local.tee 772  i64.const 1 i64.add local.tee 773  i64.const 1 i64.add local.tee 774  i64.const 1 i64.add local.tee 775
    i64.const 1 i64.add local.tee 776  i64.const 1 i64.add local.tee 777  i64.const 1 i64.add local.tee 778  i64.const 1 i64.add local.tee 779  i64.const 1 i64.add local.tee 780
    i64.const 1 i64.add local.tee 781  i64.const 1 i64.add local.tee 782  i64.const 1 i64.add local.tee 783  i64.const 1 i64.add local.tee 784  i64.const 1 i64.add local.tee 785
    i64.const 1 i64.add local.tee 786  i64.const 1 i64.add local.tee 787  i64.const 1 i64.add local.tee 788  i64.const 1 i64.add local.tee 789  i64.const 1 i64.add local.tee 790
    i64.const 1 i64.add local.tee 791  i64.const 1 i64.add local.tee 792  i64.const 1 i64.add local.tee 793  i64.const 1 i64.add local.tee 794  i64.const 1 i64.add local.tee 795
    i64.const 1 i64.add local.tee 796  i64.const 1 i64.add local.tee 797  i64.const 1 i64.add local.tee 798  i64.const 1 i64.add local.tee 799  i64.const 1 i64.add local.tee 800
    i64.const 1 i64.add local.tee 801  i64.const 1 i64.add local.tee 802  i64.const 1 i64.add local.tee 803  i64.const 1 i64.add local.tee 804  i64.const 1 i64.add local.tee 805
    i64.const 1 i64.add local.tee 806  i64.const 1 i64.add local.tee 807  i64.const 1 i64.add local.tee 808  i64.const 1 i64.add local.tee 809  i64.const 1 i64.add local.tee 810
    i64.const 1 i64.add local.tee 811  i64.const 1 i64.add local.tee 812  i64.const 1 i64.add local.tee 813  i64.const 1 i64.add local.tee 814  i64.const 1 i64.add local.tee 815
    i64.const 1 i64.add local.tee 816  i64.const 1 i64.add local.tee 817  i64.const 1 i64.add local.tee 818  i64.const 1 i64.add local.tee 819  i64.const 1 i64.add local.tee 820
    i64.const 1 i64.add local.tee 821  i64.const 1 i64.add local.tee 822  i64.const 1 i64.add local.tee 823  i64.const 1 i64.add local.tee 824  i64.const 1 i64.add local.tee 825
    i64.const 1 i64.add local.tee 826  i64.const 1 i64.add local.tee 827  i64.const 1 i64.add local.tee 828  i64.const 1 i64.add local.tee 829  i64.const 1 i64.add local.tee 830
    i64.const 1 i64.add local.tee 831  i64.const 1 i64.add local.tee 832  i64.const 1 i64.add local.tee 833  i64.const 1 i64.add local.tee 834  i64.const 1 i64.add local.tee 835
    i64.const 1 i64.add local.tee 836  i64.const 1 i64.add local.tee 837  i64.const 1 i64.add local.tee 838  i64.const 1 i64.add local.tee 839  i64.const 1 i64.add local.tee 840
    i64.const 1 i64.add local.tee 841  i64.const 1 i64.add local.tee 842  i64.const 1 i64.add local.tee 843  i64.const 1 i64.add local.tee 844  i64.const 1 i64.add local.tee 845
    i64.const 1 i64.add local.tee 846  i64.const 1 i64.add local.tee 847  i64.const 1 i64.add local.tee 848  i64.const 1 i64.add local.tee 849  i64.const 1 i64.add local.tee 850
    i64.const 1 i64.add local.tee 851  i64.const 1 i64.add local.tee 852  i64.const 1 i64.add local.tee 853  i64.const 1 i64.add local.tee 854  i64.const 1 i64.add local.tee 855
    i64.const 1 i64.add local.tee 856  i64.const 1 i64.add local.tee 857  i64.const 1 i64.add local.tee 858  i64.const 1 i64.add local.tee 859  i64.const 1 i64.add local.tee 860
    i64.const 1 i64.add local.tee 861  i64.const 1 i64.add local.tee 862  i64.const 1 i64.add local.tee 863  i64.const 1 i64.add local.tee 864  i64.const 1 i64.add local.tee 865
    i64.const 1 i64.add local.tee 866  i64.const 1 i64.add local.tee 867  i64.const 1 i64.add local.tee 868  i64.const 1 i64.add local.tee 869  i64.const 1 i64.add local.tee 870
    i64.const 1 i64.add local.tee 871  i64.const 1 i64.add local.tee 872  i64.const 1 i64.add local.tee 873  i64.const 1 i64.add local.tee 874  i64.const 1 i64.add local.tee 875
    i64.const 1 i64.add local.tee 876  i64.const 1 i64.add local.tee 877  i64.const 1 i64.add local.tee 878  i64.const 1 i64.add local.tee 879  i64.const 1 i64.add local.tee 880
    i64.const 1 i64.add local.tee 881  i64.const 1 i64.add local.tee 882  i64.const 1 i64.add local.tee 883  i64.const 1 i64.add local.tee 884  i64.const 1 i64.add local.tee 885
    i64.const 1 i64.add local.tee 886  i64.const 1 i64.add local.tee 887  i64.const 1 i64.add local.tee 888  i64.const 1 i64.add local.tee 889  i64.const 1 i64.add local.tee 890
    i64.const 1 i64.add local.tee 891  i64.const 1 i64.add local.tee 892  i64.const 1 i64.add local.tee 893  i64.const 1 i64.add local.tee 894  i64.const 1 i64.add local.tee 895
    i64.const 1 i64.add local.tee 896  i64.const 1 i64.add local.tee 897  i64.const 1 i64.add local.tee 898  i64.const 1 i64.add local.tee 899  i64.const 1 i64.add local.tee 900
    i64.const 1 i64.add local.tee 901  i64.const 1 i64.add local.tee 902  i64.const 1 i64.add local.tee 903  i64.const 1 i64.add local.tee 904  i64.const 1 i64.add local.tee 905
    i64.const 1 i64.add local.tee 906  i64.const 1 i64.add local.tee 907  i64.const 1 i64.add local.tee 908  i64.const 1 i64.add local.tee 909  i64.const 1 i64.add local.tee 910
    i64.const 1 i64.add local.tee 911  i64.const 1 i64.add local.tee 912  i64.const 1 i64.add local.tee 913  i64.const 1 i64.add local.tee 914  i64.const 1 i64.add local.tee 915
    i64.const 1 i64.add local.tee 916  i64.const 1 i64.add local.tee 917  i64.const 1 i64.add local.tee 918  i64.const 1 i64.add local.tee 919  i64.const 1 i64.add local.tee 920
    i64.const 1 i64.add local.tee 921  i64.const 1 i64.add local.tee 922  i64.const 1 i64.add local.tee 923  i64.const 1 i64.add local.tee 924  i64.const 1 i64.add local.tee 925
    i64.const 1 i64.add local.tee 926  i64.const 1 i64.add local.tee 927  i64.const 1 i64.add local.tee 928  i64.const 1 i64.add local.tee 929  i64.const 1 i64.add local.tee 930
    i64.const 1 i64.add local.tee 931  i64.const 1 i64.add local.tee 932  i64.const 1 i64.add local.tee 933  i64.const 1 i64.add local.tee 934  i64.const 1 i64.add local.tee 935
    i64.const 1 i64.add local.tee 936  i64.const 1 i64.add local.tee 937  i64.const 1 i64.add local.tee 938  i64.const 1 i64.add local.tee 939  i64.const 1 i64.add local.tee 940
    i64.const 1 i64.add local.tee 941  i64.const 1 i64.add local.tee 942  i64.const 1 i64.add local.tee 943  i64.const 1 i64.add local.tee 944  i64.const 1 i64.add local.tee 945
    i64.const 1 i64.add local.tee 946  i64.const 1 i64.add local.tee 947  i64.const 1 i64.add local.tee 948  i64.const 1 i64.add local.tee 949  i64.const 1 i64.add local.tee 950
    i64.const 1 i64.add local.tee 951  i64.const 1 i64.add local.tee 952  i64.const 1 i64.add local.tee 953  i64.const 1 i64.add local.tee 954  i64.const 1 i64.add local.tee 955
    i64.const 1 i64.add local.tee 956  i64.const 1 i64.add local.tee 957  i64.const 1 i64.add local.tee 958  i64.const 1 i64.add local.tee 959  i64.const 1 i64.add local.tee 960
    i64.const 1 i64.add local.tee 961  i64.const 1 i64.add local.tee 962  i64.const 1 i64.add local.tee 963  i64.const 1 i64.add local.tee 964  i64.const 1 i64.add local.tee 965
    i64.const 1 i64.add local.tee 966  i64.const 1 i64.add local.tee 967  i64.const 1 i64.add local.tee 968  i64.const 1 i64.add local.tee 969  i64.const 1 i64.add local.tee 970
    i64.const 1 i64.add local.tee 971  i64.const 1 i64.add local.tee 972  i64.const 1 i64.add local.tee 973  i64.const 1 i64.add local.tee 974  i64.const 1 i64.add local.tee 975
    i64.const 1 i64.add local.tee 976  i64.const 1 i64.add local.tee 977  i64.const 1 i64.add local.tee 978  i64.const 1 i64.add local.tee 979  i64.const 1 i64.add local.tee 980
    i64.const 1 i64.add local.tee 981  i64.const 1 i64.add local.tee 982  i64.const 1 i64.add local.tee 983  i64.const 1 i64.add local.tee 984  i64.const 1 i64.add local.tee 985
    i64.const 1 i64.add local.tee 986  i64.const 1 i64.add local.tee 987  i64.const 1 i64.add local.tee 988  i64.const 1 i64.add local.tee 989  i64.const 1 i64.add local.tee 990
    i64.const 1 i64.add local.tee 991  i64.const 1 i64.add local.tee 992  i64.const 1 i64.add local.tee 993  i64.const 1 i64.add local.tee 994  i64.const 1 i64.add local.tee 995
    i64.const 1 i64.add local.tee 996  i64.const 1 i64.add local.tee 997  i64.const 1 i64.add local.tee 998  i64.const 1 i64.add local.tee 999  i64.const 1 i64.add local.tee 1000
    i64.const 1 i64.add local.tee 1001  i64.const 1 i64.add local.tee 1002  i64.const 1 i64.add local.tee 1003  i64.const 1 i64.add local.tee 1004  i64.const 1 i64.add local.tee 1005
    i64.const 1 i64.add local.tee 1006  i64.const 1 i64.add local.tee 1007  i64.const 1 i64.add local.tee 1008  i64.const 1 i64.add local.tee 1009  i64.const 1 i64.add local.tee 1010
    i64.const 1 i64.add local.tee 1011  i64.const 1 i64.add local.tee 1012  i64.const 1 i64.add local.tee 1013  i64.const 1 i64.add local.tee 1014  i64.const 1 i64.add local.tee 1015
    i64.const 1 i64.add local.tee 1016  i64.const 1 i64.add local.tee 1017  i64.const 1 i64.add local.tee 1018  i64.const 1 i64.add local.tee 1019  i64.const 1 i64.add local.tee 1020
    i64.const 1 i64.add local.tee 1021  i64.const 1 i64.add local.tee 1022  i64.const 1 i64.add local.tee 1023  i64.const 1 i64.add local.tee 1024  i64.const 1 i64.add local.tee 1025
    i64.const 1 i64.add local.tee 1026  i64.const 1 i64.add local.tee 1027  i64.const 1 i64.add local.tee 1028  i64.const 1 i64.add local.tee 1029  i64.const 1 i64.add local.tee 1030
    i64.const 1 i64.add local.tee 1031  i64.const 1 i64.add local.tee 1032  i64.const 1 i64.add local.tee 1033  i64.const 1 i64.add local.tee 1034  i64.const 1 i64.add local.tee 1035
    i64.const 1 i64.add local.tee 1036  i64.const 1 i64.add local.tee 1037  i64.const 1 i64.add local.tee 1038  i64.const 1 i64.add local.tee 1039  i64.const 1 i64.add local.tee 1040
    i64.const 1 i64.add local.tee 1041  i64.const 1 i64.add local.tee 1042  i64.const 1 i64.add local.tee 1043  i64.const 1 i64.add local.tee 1044  i64.const 1 i64.add local.tee 1045
    i64.const 1 i64.add local.tee 1046  i64.const 1 i64.add local.tee 1047  i64.const 1 i64.add local.tee 1048  i64.const 1 i64.add local.tee 1049  i64.const 1 i64.add local.tee 1050
    i64.const 1 i64.add local.tee 1051  i64.const 1 i64.add local.tee 1052  i64.const 1 i64.add local.tee 1053  i64.const 1 i64.add local.tee 1054  i64.const 1 i64.add local.tee 1055
    i64.const 1 i64.add local.tee 1056  i64.const 1 i64.add local.tee 1057  i64.const 1 i64.add local.tee 1058  i64.const 1 i64.add local.tee 1059  i64.const 1 i64.add local.tee 1060
    i64.const 1 i64.add local.tee 1061  i64.const 1 i64.add local.tee 1062  i64.const 1 i64.add local.tee 1063  i64.const 1 i64.add local.tee 1064  i64.const 1 i64.add local.tee 1065
    i64.const 1 i64.add local.tee 1066  i64.const 1 i64.add local.tee 1067  i64.const 1 i64.add local.tee 1068  i64.const 1 i64.add local.tee 1069  i64.const 1 i64.add local.tee 1070
    i64.const 1 i64.add local.tee 1071  i64.const 1 i64.add local.tee 1072  i64.const 1 i64.add local.tee 1073  i64.const 1 i64.add local.tee 1074  i64.const 1 i64.add local.tee 1075
    i64.const 1 i64.add local.tee 1076  i64.const 1 i64.add local.tee 1077  i64.const 1 i64.add local.tee 1078  i64.const 1 i64.add local.tee 1079  i64.const 1 i64.add local.tee 1080
    i64.const 1 i64.add local.tee 1081  i64.const 1 i64.add local.tee 1082  i64.const 1 i64.add local.tee 1083  i64.const 1 i64.add local.tee 1084  i64.const 1 i64.add local.tee 1085
    i64.const 1 i64.add local.tee 1086  i64.const 1 i64.add local.tee 1087  i64.const 1 i64.add local.tee 1088  i64.const 1 i64.add local.tee 1089  i64.const 1 i64.add local.tee 1090
    i64.const 1 i64.add local.tee 1091  i64.const 1 i64.add local.tee 1092  i64.const 1 i64.add local.tee 1093  i64.const 1 i64.add local.tee 1094  i64.const 1 i64.add local.tee 1095
    i64.const 1 i64.add local.tee 1096  i64.const 1 i64.add local.tee 1097  i64.const 1 i64.add local.tee 1098  i64.const 1 i64.add local.tee 1099  i64.const 1 i64.add local.tee 1100
    i64.const 1 i64.add local.tee 1101  i64.const 1 i64.add local.tee 1102  i64.const 1 i64.add local.tee 1103  i64.const 1 i64.add local.tee 1104  i64.const 1 i64.add local.tee 1105
    i64.const 1 i64.add local.tee 1106  i64.const 1 i64.add local.tee 1107  i64.const 1 i64.add local.tee 1108  i64.const 1 i64.add local.tee 1109  i64.const 1 i64.add local.tee 1110
    i64.const 1 i64.add local.tee 1111  i64.const 1 i64.add local.tee 1112  i64.const 1 i64.add local.tee 1113  i64.const 1 i64.add local.tee 1114  i64.const 1 i64.add local.tee 1115
    i64.const 1 i64.add local.tee 1116  i64.const 1 i64.add local.tee 1117  i64.const 1 i64.add local.tee 1118  i64.const 1 i64.add local.tee 1119  i64.const 1 i64.add local.tee 1120
    i64.const 1 i64.add local.tee 1121  i64.const 1 i64.add local.tee 1122  i64.const 1 i64.add local.tee 1123  i64.const 1 i64.add local.tee 1124  i64.const 1 i64.add local.tee 1125
    i64.const 1 i64.add local.tee 1126  i64.const 1 i64.add local.tee 1127  i64.const 1 i64.add local.tee 1128  i64.const 1 i64.add local.tee 1129  i64.const 1 i64.add local.tee 1130
    i64.const 1 i64.add local.tee 1131  i64.const 1 i64.add local.tee 1132  i64.const 1 i64.add local.tee 1133  i64.const 1 i64.add local.tee 1134  i64.const 1 i64.add local.tee 1135
    i64.const 1 i64.add local.tee 1136  i64.const 1 i64.add local.tee 1137  i64.const 1 i64.add local.tee 1138  i64.const 1 i64.add local.tee 1139  i64.const 1 i64.add local.tee 1140
    i64.const 1 i64.add local.tee 1141  i64.const 1 i64.add local.tee 1142  i64.const 1 i64.add local.tee 1143  i64.const 1 i64.add local.tee 1144  i64.const 1 i64.add local.tee 1145
    i64.const 1 i64.add local.tee 1146  i64.const 1 i64.add local.tee 1147  i64.const 1 i64.add local.tee 1148  i64.const 1 i64.add local.tee 1149  i64.const 1 i64.add local.tee 1150
    i64.const 1 i64.add local.tee 1151  i64.const 1 i64.add local.tee 1152  i64.const 1 i64.add local.tee 1153  i64.const 1 i64.add local.tee 1154  i64.const 1 i64.add local.tee 1155
    i64.const 1 i64.add local.tee 1156  i64.const 1 i64.add local.tee 1157  i64.const 1 i64.add local.tee 1158  i64.const 1 i64.add local.tee 1159  i64.const 1 i64.add local.tee 1160
    i64.const 1 i64.add local.tee 1161  i64.const 1 i64.add local.tee 1162  i64.const 1 i64.add local.tee 1163  i64.const 1 i64.add local.tee 1164  i64.const 1 i64.add local.tee 1165
    i64.const 1 i64.add local.tee 1166  i64.const 1 i64.add local.tee 1167  i64.const 1 i64.add local.tee 1168  i64.const 1 i64.add local.tee 1169  i64.const 1 i64.add local.tee 1170
    i64.const 1 i64.add local.tee 1171  i64.const 1 i64.add local.tee 1172  i64.const 1 i64.add local.tee 1173  i64.const 1 i64.add local.tee 1174  i64.const 1 i64.add local.tee 1175
    i64.const 1 i64.add local.tee 1176  i64.const 1 i64.add local.tee 1177  i64.const 1 i64.add local.tee 1178  i64.const 1 i64.add local.tee 1179  i64.const 1 i64.add local.tee 1180
    i64.const 1 i64.add local.tee 1181  i64.const 1 i64.add local.tee 1182  i64.const 1 i64.add local.tee 1183  i64.const 1 i64.add local.tee 1184  i64.const 1 i64.add local.tee 1185
    i64.const 1 i64.add local.tee 1186  i64.const 1 i64.add local.tee 1187  i64.const 1 i64.add local.tee 1188  i64.const 1 i64.add local.tee 1189  i64.const 1 i64.add local.tee 1190
    i64.const 1 i64.add local.tee 1191  i64.const 1 i64.add local.tee 1192  i64.const 1 i64.add local.tee 1193  i64.const 1 i64.add local.tee 1194  i64.const 1 i64.add local.tee 1195
    i64.const 1 i64.add local.tee 1196  i64.const 1 i64.add local.tee 1197  i64.const 1 i64.add local.tee 1198  i64.const 1 i64.add local.tee 1199  i64.const 1 i64.add local.tee 1200
    i64.const 1 i64.add local.tee 1201  i64.const 1 i64.add local.tee 1202  i64.const 1 i64.add local.tee 1203  i64.const 1 i64.add local.tee 1204  i64.const 1 i64.add local.tee 1205
    i64.const 1 i64.add local.tee 1206  i64.const 1 i64.add local.tee 1207  i64.const 1 i64.add local.tee 1208  i64.const 1 i64.add local.tee 1209  i64.const 1 i64.add local.tee 1210
    i64.const 1 i64.add local.tee 1211  i64.const 1 i64.add local.tee 1212  i64.const 1 i64.add local.tee 1213  i64.const 1 i64.add local.tee 1214  i64.const 1 i64.add local.tee 1215
    i64.const 1 i64.add local.tee 1216  i64.const 1 i64.add local.tee 1217  i64.const 1 i64.add local.tee 1218  i64.const 1 i64.add local.tee 1219  i64.const 1 i64.add local.tee 1220
    i64.const 1 i64.add local.tee 1221  i64.const 1 i64.add local.tee 1222  i64.const 1 i64.add local.tee 1223  i64.const 1 i64.add local.tee 1224  i64.const 1 i64.add local.tee 1225
    i64.const 1 i64.add local.tee 1226  i64.const 1 i64.add local.tee 1227  i64.const 1 i64.add local.tee 1228  i64.const 1 i64.add local.tee 1229  i64.const 1 i64.add local.tee 1230
    i64.const 1 i64.add local.tee 1231  i64.const 1 i64.add local.tee 1232  i64.const 1 i64.add local.tee 1233  i64.const 1 i64.add local.tee 1234  i64.const 1 i64.add local.tee 1235
    i64.const 1 i64.add local.tee 1236  i64.const 1 i64.add local.tee 1237  i64.const 1 i64.add local.tee 1238  i64.const 1 i64.add local.tee 1239  i64.const 1 i64.add local.tee 1240
    i64.const 1 i64.add local.tee 1241  i64.const 1 i64.add local.tee 1242  i64.const 1 i64.add local.tee 1243  i64.const 1 i64.add local.tee 1244  i64.const 1 i64.add local.tee 1245
    i64.const 1 i64.add local.tee 1246  i64.const 1 i64.add local.tee 1247  i64.const 1 i64.add local.tee 1248  i64.const 1 i64.add local.tee 1249  i64.const 1 i64.add local.tee 1250
    i64.const 1 i64.add local.tee 1251  i64.const 1 i64.add local.tee 1252  i64.const 1 i64.add local.tee 1253  i64.const 1 i64.add local.tee 1254  i64.const 1 i64.add local.tee 1255
    i64.const 1 i64.add local.tee 1256  i64.const 1 i64.add local.tee 1257  i64.const 1 i64.add local.tee 1258  i64.const 1 i64.add local.tee 1259  i64.const 1 i64.add local.tee 1260
    i64.const 1 i64.add local.tee 1261  i64.const 1 i64.add local.tee 1262  i64.const 1 i64.add local.tee 1263  i64.const 1 i64.add local.tee 1264  i64.const 1 i64.add local.tee 1265
    i64.const 1 i64.add local.tee 1266  i64.const 1 i64.add local.tee 1267  i64.const 1 i64.add local.tee 1268  i64.const 1 i64.add local.tee 1269  i64.const 1 i64.add local.tee 1270
    i64.const 1 i64.add local.tee 1271  i64.const 1 i64.add local.tee 1272  i64.const 1 i64.add local.tee 1273  i64.const 1 i64.add local.tee 1274  i64.const 1 i64.add local.tee 1275
    i64.const 1 i64.add local.tee 1276  i64.const 1 i64.add local.tee 1277  i64.const 1 i64.add local.tee 1278  i64.const 1 i64.add local.tee 1279  i64.const 1 i64.add local.tee 1280
    i64.const 1 i64.add local.tee 1281  i64.const 1 i64.add local.tee 1282  i64.const 1 i64.add local.tee 1283  i64.const 1 i64.add local.tee 1284  i64.const 1 i64.add local.tee 1285
    i64.const 1 i64.add local.tee 1286  i64.const 1 i64.add local.tee 1287  i64.const 1 i64.add local.tee 1288  i64.const 1 i64.add local.tee 1289  i64.const 1 i64.add local.tee 1290
    i64.const 1 i64.add local.tee 1291  i64.const 1 i64.add local.tee 1292  i64.const 1 i64.add local.tee 1293  i64.const 1 i64.add local.tee 1294  i64.const 1 i64.add local.tee 1295
    i64.const 1 i64.add local.tee 1296  i64.const 1 i64.add local.tee 1297  i64.const 1 i64.add local.tee 1298  i64.const 1 i64.add local.tee 1299  i64.const 1 i64.add local.tee 1300
    i64.const 1 i64.add local.tee 1301  i64.const 1 i64.add local.tee 1302  i64.const 1 i64.add local.tee 1303  i64.const 1 i64.add local.tee 1304  i64.const 1 i64.add local.tee 1305
    i64.const 1 i64.add local.tee 1306  i64.const 1 i64.add local.tee 1307  i64.const 1 i64.add local.tee 1308  i64.const 1 i64.add local.tee 1309  i64.const 1 i64.add local.tee 1310
    i64.const 1 i64.add local.tee 1311  i64.const 1 i64.add local.tee 1312  i64.const 1 i64.add local.tee 1313  i64.const 1 i64.add local.tee 1314  i64.const 1 i64.add local.tee 1315
    i64.const 1 i64.add local.tee 1316  i64.const 1 i64.add local.tee 1317  i64.const 1 i64.add local.tee 1318  i64.const 1 i64.add local.tee 1319  i64.const 1 i64.add local.tee 1320
    i64.const 1 i64.add local.tee 1321  i64.const 1 i64.add local.tee 1322  i64.const 1 i64.add local.tee 1323  i64.const 1 i64.add local.tee 1324  i64.const 1 i64.add local.tee 1325
    i64.const 1 i64.add local.tee 1326  i64.const 1 i64.add local.tee 1327  i64.const 1 i64.add local.tee 1328  i64.const 1 i64.add local.tee 1329  i64.const 1 i64.add local.tee 1330
    i64.const 1 i64.add local.tee 1331  i64.const 1 i64.add local.tee 1332  i64.const 1 i64.add local.tee 1333  i64.const 1 i64.add local.tee 1334  i64.const 1 i64.add local.tee 1335
    i64.const 1 i64.add local.tee 1336  i64.const 1 i64.add local.tee 1337  i64.const 1 i64.add local.tee 1338  i64.const 1 i64.add local.tee 1339  i64.const 1 i64.add local.tee 1340
    i64.const 1 i64.add local.tee 1341  i64.const 1 i64.add local.tee 1342  i64.const 1 i64.add local.tee 1343  i64.const 1 i64.add local.tee 1344  i64.const 1 i64.add local.tee 1345
    i64.const 1 i64.add local.tee 1346  i64.const 1 i64.add local.tee 1347  i64.const 1 i64.add local.tee 1348  i64.const 1 i64.add local.tee 1349  i64.const 1 i64.add local.tee 1350
    i64.const 1 i64.add local.tee 1351  i64.const 1 i64.add local.tee 1352  i64.const 1 i64.add local.tee 1353  i64.const 1 i64.add local.tee 1354  i64.const 1 i64.add local.tee 1355
    i64.const 1 i64.add local.tee 1356  i64.const 1 i64.add local.tee 1357  i64.const 1 i64.add local.tee 1358  i64.const 1 i64.add local.tee 1359  i64.const 1 i64.add local.tee 1360
    i64.const 1 i64.add local.tee 1361  i64.const 1 i64.add local.tee 1362  i64.const 1 i64.add local.tee 1363  i64.const 1 i64.add local.tee 1364  i64.const 1 i64.add local.tee 1365
    i64.const 1 i64.add local.tee 1366  i64.const 1 i64.add local.tee 1367  i64.const 1 i64.add local.tee 1368  i64.const 1 i64.add local.tee 1369  i64.const 1 i64.add local.tee 1370
    i64.const 1 i64.add local.tee 1371  i64.const 1 i64.add local.tee 1372  i64.const 1 i64.add local.tee 1373  i64.const 1 i64.add local.tee 1374  i64.const 1 i64.add local.tee 1375
    i64.const 1 i64.add local.tee 1376  i64.const 1 i64.add local.tee 1377  i64.const 1 i64.add local.tee 1378  i64.const 1 i64.add local.tee 1379  i64.const 1 i64.add local.tee 1380
    i64.const 1 i64.add local.tee 1381  i64.const 1 i64.add local.tee 1382  i64.const 1 i64.add local.tee 1383  i64.const 1 i64.add local.tee 1384  i64.const 1 i64.add local.tee 1385
    i64.const 1 i64.add local.tee 1386  i64.const 1 i64.add local.tee 1387  i64.const 1 i64.add local.tee 1388  i64.const 1 i64.add local.tee 1389  i64.const 1 i64.add local.tee 1390
    i64.const 1 i64.add local.tee 1391  i64.const 1 i64.add local.tee 1392  i64.const 1 i64.add local.tee 1393  i64.const 1 i64.add local.tee 1394  i64.const 1 i64.add local.tee 1395
    i64.const 1 i64.add local.tee 1396  i64.const 1 i64.add local.tee 1397  i64.const 1 i64.add local.tee 1398  i64.const 1 i64.add local.tee 1399  i64.const 1 i64.add local.tee 1400
    i64.const 1 i64.add local.tee 1401  i64.const 1 i64.add local.tee 1402  i64.const 1 i64.add local.tee 1403  i64.const 1 i64.add local.tee 1404  i64.const 1 i64.add local.tee 1405
    i64.const 1 i64.add local.tee 1406  i64.const 1 i64.add local.tee 1407  i64.const 1 i64.add local.tee 1408  i64.const 1 i64.add local.tee 1409  i64.const 1 i64.add local.tee 1410
    i64.const 1 i64.add local.tee 1411  i64.const 1 i64.add local.tee 1412  i64.const 1 i64.add local.tee 1413  i64.const 1 i64.add local.tee 1414  i64.const 1 i64.add local.tee 1415
    i64.const 1 i64.add local.tee 1416  i64.const 1 i64.add local.tee 1417  i64.const 1 i64.add local.tee 1418  i64.const 1 i64.add local.tee 1419  i64.const 1 i64.add local.tee 1420
    i64.const 1 i64.add local.tee 1421  i64.const 1 i64.add local.tee 1422  i64.const 1 i64.add local.tee 1423  i64.const 1 i64.add local.tee 1424  i64.const 1 i64.add local.tee 1425
    i64.const 1 i64.add local.tee 1426  i64.const 1 i64.add local.tee 1427  i64.const 1 i64.add local.tee 1428  i64.const 1 i64.add local.tee 1429  i64.const 1 i64.add local.tee 1430
    i64.const 1 i64.add local.tee 1431  i64.const 1 i64.add local.tee 1432  i64.const 1 i64.add local.tee 1433  i64.const 1 i64.add local.tee 1434  i64.const 1 i64.add local.tee 1435
    i64.const 1 i64.add local.tee 1436  i64.const 1 i64.add local.tee 1437  i64.const 1 i64.add local.tee 1438  i64.const 1 i64.add local.tee 1439  i64.const 1 i64.add local.tee 1440
    i64.const 1 i64.add local.tee 1441  i64.const 1 i64.add local.tee 1442  i64.const 1 i64.add local.tee 1443  i64.const 1 i64.add local.tee 1444  i64.const 1 i64.add local.tee 1445
    i64.const 1 i64.add local.tee 1446  i64.const 1 i64.add local.tee 1447  i64.const 1 i64.add local.tee 1448  i64.const 1 i64.add local.tee 1449  i64.const 1 i64.add local.tee 1450
    i64.const 1 i64.add local.tee 1451  i64.const 1 i64.add local.tee 1452  i64.const 1 i64.add local.tee 1453  i64.const 1 i64.add local.tee 1454  i64.const 1 i64.add local.tee 1455
    i64.const 1 i64.add local.tee 1456  i64.const 1 i64.add local.tee 1457  i64.const 1 i64.add local.tee 1458  i64.const 1 i64.add local.tee 1459  i64.const 1 i64.add local.tee 1460
    i64.const 1 i64.add local.tee 1461  i64.const 1 i64.add local.tee 1462  i64.const 1 i64.add local.tee 1463  i64.const 1 i64.add local.tee 1464  i64.const 1 i64.add local.tee 1465
    i64.const 1 i64.add local.tee 1466  i64.const 1 i64.add local.tee 1467  i64.const 1 i64.add local.tee 1468  i64.const 1 i64.add local.tee 1469  i64.const 1 i64.add local.tee 1470
    i64.const 1 i64.add local.tee 1471  i64.const 1 i64.add local.tee 1472  i64.const 1 i64.add local.tee 1473  i64.const 1 i64.add local.tee 1474  i64.const 1 i64.add local.tee 1475
    i64.const 1 i64.add local.tee 1476  i64.const 1 i64.add local.tee 1477  i64.const 1 i64.add local.tee 1478  i64.const 1 i64.add local.tee 1479  i64.const 1 i64.add local.tee 1480
    i64.const 1 i64.add local.tee 1481  i64.const 1 i64.add local.tee 1482  i64.const 1 i64.add local.tee 1483  i64.const 1 i64.add local.tee 1484  i64.const 1 i64.add local.tee 1485
    i64.const 1 i64.add local.tee 1486  i64.const 1 i64.add local.tee 1487  i64.const 1 i64.add local.tee 1488  i64.const 1 i64.add local.tee 1489  i64.const 1 i64.add local.tee 1490
    i64.const 1 i64.add local.tee 1491  i64.const 1 i64.add local.tee 1492  i64.const 1 i64.add local.tee 1493  i64.const 1 i64.add local.tee 1494  i64.const 1 i64.add local.tee 1495
    i64.const 1 i64.add local.tee 1496  i64.const 1 i64.add local.tee 1497  i64.const 1 i64.add local.tee 1498  i64.const 1 i64.add local.tee 1499  i64.const 1 i64.add local.tee 1500
    i64.const 1 i64.add local.tee 1501  i64.const 1 i64.add local.tee 1502  i64.const 1 i64.add local.tee 1503  i64.const 1 i64.add local.tee 1504  i64.const 1 i64.add local.tee 1505
    i64.const 1 i64.add local.tee 1506  i64.const 1 i64.add local.tee 1507  i64.const 1 i64.add local.tee 1508  i64.const 1 i64.add local.tee 1509  i64.const 1 i64.add local.tee 1510
    i64.const 1 i64.add local.tee 1511  i64.const 1 i64.add local.tee 1512  i64.const 1 i64.add local.tee 1513  i64.const 1 i64.add local.tee 1514  i64.const 1 i64.add local.tee 1515
    i64.const 1 i64.add local.tee 1516  i64.const 1 i64.add local.tee 1517  i64.const 1 i64.add local.tee 1518  i64.const 1 i64.add local.tee 1519  i64.const 1 i64.add local.tee 1520
    i64.const 1 i64.add local.tee 1521  i64.const 1 i64.add local.tee 1522  i64.const 1 i64.add local.tee 1523  i64.const 1 i64.add local.tee 1524  i64.const 1 i64.add local.tee 1525
    i64.const 1 i64.add local.tee 1526  i64.const 1 i64.add local.tee 1527  i64.const 1 i64.add local.tee 1528  i64.const 1 i64.add local.tee 1529  i64.const 1 i64.add local.tee 1530
    i64.const 1 i64.add local.tee 1531  i64.const 1 i64.add local.tee 1532  i64.const 1 i64.add local.tee 1533  i64.const 1 i64.add local.tee 1534  i64.const 1 i64.add local.tee 1535
    i64.const 1 i64.add local.tee 1536  i64.const 1 i64.add local.tee 1537  i64.const 1 i64.add local.tee 1538  i64.const 1 i64.add local.tee 1539  i64.const 1 i64.add local.tee 1540
    i64.const 1 i64.add local.tee 1541  i64.const 1 i64.add local.tee 1542  i64.const 1 i64.add local.tee 1543  i64.const 1 i64.add local.tee 1544  i64.const 1 i64.add local.tee 1545
    i64.const 1 i64.add local.tee 1546  i64.const 1 i64.add local.tee 1547  i64.const 1 i64.add local.tee 1548  i64.const 1 i64.add local.tee 1549  i64.const 1 i64.add local.tee 1550
    i64.const 1 i64.add local.tee 1551  i64.const 1 i64.add local.tee 1552  i64.const 1 i64.add local.tee 1553  i64.const 1 i64.add local.tee 1554  i64.const 1 i64.add local.tee 1555
    i64.const 1 i64.add local.tee 1556  i64.const 1 i64.add local.tee 1557  i64.const 1 i64.add local.tee 1558  i64.const 1 i64.add local.tee 1559  i64.const 1 i64.add local.tee 1560
    i64.const 1 i64.add local.tee 1561  i64.const 1 i64.add local.tee 1562  i64.const 1 i64.add local.tee 1563  i64.const 1 i64.add local.tee 1564  i64.const 1 i64.add local.tee 1565
    i64.const 1 i64.add local.tee 1566  i64.const 1 i64.add local.tee 1567  i64.const 1 i64.add local.tee 1568  i64.const 1 i64.add local.tee 1569  i64.const 1 i64.add local.tee 1570
    i64.const 1 i64.add local.tee 1571  i64.const 1 i64.add local.tee 1572  i64.const 1 i64.add local.tee 1573  i64.const 1 i64.add local.tee 1574  i64.const 1 i64.add local.tee 1575
    i64.const 1 i64.add local.tee 1576  i64.const 1 i64.add local.tee 1577  i64.const 1 i64.add local.tee 1578  i64.const 1 i64.add local.tee 1579  i64.const 1 i64.add local.tee 1580
    i64.const 1 i64.add local.tee 1581  i64.const 1 i64.add local.tee 1582  i64.const 1 i64.add local.tee 1583  i64.const 1 i64.add local.tee 1584  i64.const 1 i64.add local.tee 1585
    i64.const 1 i64.add local.tee 1586  i64.const 1 i64.add local.tee 1587  i64.const 1 i64.add local.tee 1588  i64.const 1 i64.add local.tee 1589  i64.const 1 i64.add local.tee 1590
    i64.const 1 i64.add local.tee 1591  i64.const 1 i64.add local.tee 1592  i64.const 1 i64.add local.tee 1593  i64.const 1 i64.add local.tee 1594  i64.const 1 i64.add local.tee 1595
    i64.const 1 i64.add local.tee 1596  i64.const 1 i64.add local.tee 1597  i64.const 1 i64.add local.tee 1598  i64.const 1 i64.add local.tee 1599  i64.const 1 i64.add local.tee 1600
    i64.const 1 i64.add local.tee 1601  i64.const 1 i64.add local.tee 1602  i64.const 1 i64.add local.tee 1603  i64.const 1 i64.add local.tee 1604  i64.const 1 i64.add local.tee 1605
    i64.const 1 i64.add local.tee 1606  i64.const 1 i64.add local.tee 1607  i64.const 1 i64.add local.tee 1608  i64.const 1 i64.add local.tee 1609  i64.const 1 i64.add local.tee 1610
    i64.const 1 i64.add local.tee 1611  i64.const 1 i64.add local.tee 1612  i64.const 1 i64.add local.tee 1613  i64.const 1 i64.add local.tee 1614  i64.const 1 i64.add local.tee 1615
    i64.const 1 i64.add local.tee 1616  i64.const 1 i64.add local.tee 1617  i64.const 1 i64.add local.tee 1618  i64.const 1 i64.add local.tee 1619  i64.const 1 i64.add local.tee 1620
    i64.const 1 i64.add local.tee 1621  i64.const 1 i64.add local.tee 1622  i64.const 1 i64.add local.tee 1623  i64.const 1 i64.add local.tee 1624  i64.const 1 i64.add local.tee 1625
    i64.const 1 i64.add local.tee 1626  i64.const 1 i64.add local.tee 1627  i64.const 1 i64.add local.tee 1628  i64.const 1 i64.add local.tee 1629  i64.const 1 i64.add local.tee 1630
    i64.const 1 i64.add local.tee 1631  i64.const 1 i64.add local.tee 1632  i64.const 1 i64.add local.tee 1633  i64.const 1 i64.add local.tee 1634  i64.const 1 i64.add local.tee 1635
    i64.const 1 i64.add local.tee 1636  i64.const 1 i64.add local.tee 1637  i64.const 1 i64.add local.tee 1638  i64.const 1 i64.add local.tee 1639  i64.const 1 i64.add local.tee 1640
    i64.const 1 i64.add local.tee 1641  i64.const 1 i64.add local.tee 1642  i64.const 1 i64.add local.tee 1643  i64.const 1 i64.add local.tee 1644  i64.const 1 i64.add local.tee 1645
    i64.const 1 i64.add local.tee 1646  i64.const 1 i64.add local.tee 1647  i64.const 1 i64.add local.tee 1648  i64.const 1 i64.add local.tee 1649  i64.const 1 i64.add local.tee 1650
    i64.const 1 i64.add local.tee 1651  i64.const 1 i64.add local.tee 1652  i64.const 1 i64.add local.tee 1653  i64.const 1 i64.add local.tee 1654  i64.const 1 i64.add local.tee 1655
    i64.const 1 i64.add local.tee 1656  i64.const 1 i64.add local.tee 1657  i64.const 1 i64.add local.tee 1658  i64.const 1 i64.add local.tee 1659  i64.const 1 i64.add local.tee 1660
    i64.const 1 i64.add local.tee 1661  i64.const 1 i64.add local.tee 1662  i64.const 1 i64.add local.tee 1663  i64.const 1 i64.add local.tee 1664  i64.const 1 i64.add local.tee 1665
    i64.const 1 i64.add local.tee 1666  i64.const 1 i64.add local.tee 1667  i64.const 1 i64.add local.tee 1668  i64.const 1 i64.add local.tee 1669  i64.const 1 i64.add local.tee 1670
    i64.const 1 i64.add local.tee 1671  i64.const 1 i64.add local.tee 1672  i64.const 1 i64.add local.tee 1673  i64.const 1 i64.add local.tee 1674  i64.const 1 i64.add local.tee 1675
    i64.const 1 i64.add local.tee 1676  i64.const 1 i64.add local.tee 1677  i64.const 1 i64.add local.tee 1678  i64.const 1 i64.add local.tee 1679  i64.const 1 i64.add local.tee 1680
    i64.const 1 i64.add local.tee 1681  i64.const 1 i64.add local.tee 1682  i64.const 1 i64.add local.tee 1683  i64.const 1 i64.add local.tee 1684  i64.const 1 i64.add local.tee 1685
    i64.const 1 i64.add local.tee 1686  i64.const 1 i64.add local.tee 1687  i64.const 1 i64.add local.tee 1688  i64.const 1 i64.add local.tee 1689  i64.const 1 i64.add local.tee 1690
    i64.const 1 i64.add local.tee 1691  i64.const 1 i64.add local.tee 1692  i64.const 1 i64.add local.tee 1693  i64.const 1 i64.add local.tee 1694  i64.const 1 i64.add local.tee 1695
    i64.const 1 i64.add local.tee 1696  i64.const 1 i64.add local.tee 1697  i64.const 1 i64.add local.tee 1698  i64.const 1 i64.add local.tee 1699  i64.const 1 i64.add local.tee 1700
    i64.const 1 i64.add local.tee 1701  i64.const 1 i64.add local.tee 1702  i64.const 1 i64.add local.tee 1703  i64.const 1 i64.add local.tee 1704  i64.const 1 i64.add local.tee 1705
    i64.const 1 i64.add local.tee 1706  i64.const 1 i64.add local.tee 1707  i64.const 1 i64.add local.tee 1708  i64.const 1 i64.add local.tee 1709  i64.const 1 i64.add local.tee 1710
    i64.const 1 i64.add local.tee 1711  i64.const 1 i64.add local.tee 1712  i64.const 1 i64.add local.tee 1713  i64.const 1 i64.add local.tee 1714  i64.const 1 i64.add local.tee 1715
    i64.const 1 i64.add local.tee 1716  i64.const 1 i64.add local.tee 1717  i64.const 1 i64.add local.tee 1718  i64.const 1 i64.add local.tee 1719  i64.const 1 i64.add local.tee 1720
    i64.const 1 i64.add local.tee 1721  i64.const 1 i64.add local.tee 1722  i64.const 1 i64.add local.tee 1723  i64.const 1 i64.add local.tee 1724  i64.const 1 i64.add local.tee 1725
    i64.const 1 i64.add local.tee 1726  i64.const 1 i64.add local.tee 1727  i64.const 1 i64.add local.tee 1728  i64.const 1 i64.add local.tee 1729  i64.const 1 i64.add local.tee 1730
    i64.const 1 i64.add local.tee 1731  i64.const 1 i64.add local.tee 1732  i64.const 1 i64.add local.tee 1733  i64.const 1 i64.add local.tee 1734  i64.const 1 i64.add local.tee 1735
    i64.const 1 i64.add local.tee 1736  i64.const 1 i64.add local.tee 1737  i64.const 1 i64.add local.tee 1738  i64.const 1 i64.add local.tee 1739  i64.const 1 i64.add local.tee 1740
    i64.const 1 i64.add local.tee 1741  i64.const 1 i64.add local.tee 1742  i64.const 1 i64.add local.tee 1743  i64.const 1 i64.add local.tee 1744  i64.const 1 i64.add local.tee 1745
    i64.const 1 i64.add local.tee 1746  i64.const 1 i64.add local.tee 1747  i64.const 1 i64.add local.tee 1748  i64.const 1 i64.add local.tee 1749  i64.const 1 i64.add local.tee 1750
    i64.const 1 i64.add local.tee 1751  i64.const 1 i64.add local.tee 1752  i64.const 1 i64.add local.tee 1753  i64.const 1 i64.add local.tee 1754  i64.const 1 i64.add local.tee 1755
    i64.const 1 i64.add local.tee 1756  i64.const 1 i64.add local.tee 1757  i64.const 1 i64.add local.tee 1758  i64.const 1 i64.add local.tee 1759  i64.const 1 i64.add local.tee 1760
    i64.const 1 i64.add local.tee 1761  i64.const 1 i64.add local.tee 1762  i64.const 1 i64.add local.tee 1763  i64.const 1 i64.add local.tee 1764  i64.const 1 i64.add local.tee 1765
    i64.const 1 i64.add local.tee 1766  i64.const 1 i64.add local.tee 1767  i64.const 1 i64.add local.tee 1768  i64.const 1 i64.add local.tee 1769  i64.const 1 i64.add local.tee 1770
    i64.const 1 i64.add local.tee 1771  i64.const 1 i64.add local.tee 1772  i64.const 1 i64.add local.tee 1773  i64.const 1 i64.add local.tee 1774  i64.const 1 i64.add local.tee 1775
    i64.const 1 i64.add local.tee 1776  i64.const 1 i64.add local.tee 1777  i64.const 1 i64.add local.tee 1778  i64.const 1 i64.add local.tee 1779  i64.const 1 i64.add local.tee 1780
    i64.const 1 i64.add local.tee 1781  i64.const 1 i64.add local.tee 1782  i64.const 1 i64.add local.tee 1783  i64.const 1 i64.add local.tee 1784  i64.const 1 i64.add local.tee 1785
    i64.const 1 i64.add local.tee 1786  i64.const 1 i64.add local.tee 1787  i64.const 1 i64.add local.tee 1788  i64.const 1 i64.add local.tee 1789  i64.const 1 i64.add local.tee 1790
    i64.const 1 i64.add local.tee 1791  i64.const 1 i64.add local.tee 1792  i64.const 1 i64.add local.tee 1793  i64.const 1 i64.add local.tee 1794  i64.const 1 i64.add local.tee 1795
    i64.const 1 i64.add local.tee 1796  i64.const 1 i64.add local.tee 1797  i64.const 1 i64.add local.tee 1798  i64.const 1 i64.add local.tee 1799  i64.const 1 i64.add local.tee 1800
    i64.const 1 i64.add local.tee 1801  i64.const 1 i64.add local.tee 1802  i64.const 1 i64.add local.tee 1803  i64.const 1 i64.add local.tee 1804  i64.const 1 i64.add local.tee 1805
    i64.const 1 i64.add local.tee 1806  i64.const 1 i64.add local.tee 1807  i64.const 1 i64.add local.tee 1808  i64.const 1 i64.add local.tee 1809  i64.const 1 i64.add local.tee 1810
    i64.const 1 i64.add local.tee 1811  i64.const 1 i64.add local.tee 1812  i64.const 1 i64.add local.tee 1813  i64.const 1 i64.add local.tee 1814  i64.const 1 i64.add local.tee 1815
    i64.const 1 i64.add local.tee 1816  i64.const 1 i64.add local.tee 1817  i64.const 1 i64.add local.tee 1818  i64.const 1 i64.add local.tee 1819  i64.const 1 i64.add local.tee 1820
    i64.const 1 i64.add local.tee 1821  i64.const 1 i64.add local.tee 1822  i64.const 1 i64.add local.tee 1823  i64.const 1 i64.add local.tee 1824  i64.const 1 i64.add local.tee 1825
    i64.const 1 i64.add local.tee 1826  i64.const 1 i64.add local.tee 1827  i64.const 1 i64.add local.tee 1828  i64.const 1 i64.add local.tee 1829  i64.const 1 i64.add local.tee 1830
    i64.const 1 i64.add local.tee 1831  i64.const 1 i64.add local.tee 1832  i64.const 1 i64.add local.tee 1833  i64.const 1 i64.add local.tee 1834  i64.const 1 i64.add local.tee 1835
    i64.const 1 i64.add local.tee 1836  i64.const 1 i64.add local.tee 1837  i64.const 1 i64.add local.tee 1838  i64.const 1 i64.add local.tee 1839  i64.const 1 i64.add local.tee 1840
    i64.const 1 i64.add local.tee 1841  i64.const 1 i64.add local.tee 1842  i64.const 1 i64.add local.tee 1843  i64.const 1 i64.add local.tee 1844  i64.const 1 i64.add local.tee 1845
    i64.const 1 i64.add local.tee 1846  i64.const 1 i64.add local.tee 1847  i64.const 1 i64.add local.tee 1848  i64.const 1 i64.add local.tee 1849  i64.const 1 i64.add local.tee 1850
    i64.const 1 i64.add local.tee 1851  i64.const 1 i64.add local.tee 1852  i64.const 1 i64.add local.tee 1853  i64.const 1 i64.add local.tee 1854  i64.const 1 i64.add local.tee 1855
    i64.const 1 i64.add local.tee 1856  i64.const 1 i64.add local.tee 1857  i64.const 1 i64.add local.tee 1858  i64.const 1 i64.add local.tee 1859  i64.const 1 i64.add local.tee 1860
    i64.const 1 i64.add local.tee 1861  i64.const 1 i64.add local.tee 1862  i64.const 1 i64.add local.tee 1863  i64.const 1 i64.add local.tee 1864  i64.const 1 i64.add local.tee 1865
    i64.const 1 i64.add local.tee 1866  i64.const 1 i64.add local.tee 1867  i64.const 1 i64.add local.tee 1868  i64.const 1 i64.add local.tee 1869  i64.const 1 i64.add local.tee 1870
    i64.const 1 i64.add local.tee 1871  i64.const 1 i64.add local.tee 1872  i64.const 1 i64.add local.tee 1873  i64.const 1 i64.add local.tee 1874  i64.const 1 i64.add local.tee 1875
    i64.const 1 i64.add local.tee 1876  i64.const 1 i64.add local.tee 1877  i64.const 1 i64.add local.tee 1878  i64.const 1 i64.add local.tee 1879  i64.const 1 i64.add local.tee 1880
    i64.const 1 i64.add local.tee 1881  i64.const 1 i64.add local.tee 1882  i64.const 1 i64.add local.tee 1883  i64.const 1 i64.add local.tee 1884  i64.const 1 i64.add local.tee 1885
    i64.const 1 i64.add local.tee 1886  i64.const 1 i64.add local.tee 1887  i64.const 1 i64.add local.tee 1888  i64.const 1 i64.add local.tee 1889  i64.const 1 i64.add local.tee 1890
    i64.const 1 i64.add local.tee 1891  i64.const 1 i64.add local.tee 1892  i64.const 1 i64.add local.tee 1893  i64.const 1 i64.add local.tee 1894  i64.const 1 i64.add local.tee 1895
    i64.const 1 i64.add local.tee 1896  i64.const 1 i64.add local.tee 1897  i64.const 1 i64.add local.tee 1898  i64.const 1 i64.add local.tee 1899  i64.const 1 i64.add local.tee 1900
    i64.const 1 i64.add local.tee 1901  i64.const 1 i64.add local.tee 1902  i64.const 1 i64.add local.tee 1903  i64.const 1 i64.add local.tee 1904  i64.const 1 i64.add local.tee 1905
    i64.const 1 i64.add local.tee 1906  i64.const 1 i64.add local.tee 1907  i64.const 1 i64.add local.tee 1908  i64.const 1 i64.add local.tee 1909  i64.const 1 i64.add local.tee 1910
    i64.const 1 i64.add local.tee 1911  i64.const 1 i64.add local.tee 1912  i64.const 1 i64.add local.tee 1913  i64.const 1 i64.add local.tee 1914  i64.const 1 i64.add local.tee 1915
    i64.const 1 i64.add local.tee 1916  i64.const 1 i64.add local.tee 1917  i64.const 1 i64.add local.tee 1918  i64.const 1 i64.add local.tee 1919  i64.const 1 i64.add local.tee 1920
    i64.const 1 i64.add local.tee 1921  i64.const 1 i64.add local.tee 1922  i64.const 1 i64.add local.tee 1923  i64.const 1 i64.add local.tee 1924  i64.const 1 i64.add local.tee 1925
    i64.const 1 i64.add local.tee 1926  i64.const 1 i64.add local.tee 1927  i64.const 1 i64.add local.tee 1928  i64.const 1 i64.add local.tee 1929  i64.const 1 i64.add local.tee 1930
    i64.const 1 i64.add local.tee 1931  i64.const 1 i64.add local.tee 1932  i64.const 1 i64.add local.tee 1933  i64.const 1 i64.add local.tee 1934  i64.const 1 i64.add local.tee 1935
    i64.const 1 i64.add local.tee 1936  i64.const 1 i64.add local.tee 1937  i64.const 1 i64.add local.tee 1938  i64.const 1 i64.add local.tee 1939  i64.const 1 i64.add local.tee 1940
    i64.const 1 i64.add local.tee 1941  i64.const 1 i64.add local.tee 1942  i64.const 1 i64.add local.tee 1943  i64.const 1 i64.add local.tee 1944  i64.const 1 i64.add local.tee 1945
    i64.const 1 i64.add local.tee 1946  i64.const 1 i64.add local.tee 1947  i64.const 1 i64.add local.tee 1948  i64.const 1 i64.add local.tee 1949  i64.const 1 i64.add local.tee 1950
    i64.const 1 i64.add local.tee 1951  i64.const 1 i64.add local.tee 1952  i64.const 1 i64.add local.tee 1953  i64.const 1 i64.add local.tee 1954  i64.const 1 i64.add local.tee 1955
    i64.const 1 i64.add local.tee 1956  i64.const 1 i64.add local.tee 1957  i64.const 1 i64.add local.tee 1958  i64.const 1 i64.add local.tee 1959  i64.const 1 i64.add local.tee 1960
    i64.const 1 i64.add local.tee 1961  i64.const 1 i64.add local.tee 1962  i64.const 1 i64.add local.tee 1963  i64.const 1 i64.add local.tee 1964  i64.const 1 i64.add local.tee 1965
    i64.const 1 i64.add local.tee 1966  i64.const 1 i64.add local.tee 1967  i64.const 1 i64.add local.tee 1968  i64.const 1 i64.add local.tee 1969  i64.const 1 i64.add local.tee 1970
    i64.const 1 i64.add local.tee 1971  i64.const 1 i64.add local.tee 1972  i64.const 1 i64.add local.tee 1973  i64.const 1 i64.add local.tee 1974  i64.const 1 i64.add local.tee 1975
    i64.const 1 i64.add local.tee 1976  i64.const 1 i64.add local.tee 1977  i64.const 1 i64.add local.tee 1978  i64.const 1 i64.add local.tee 1979  i64.const 1 i64.add local.tee 1980
    i64.const 1 i64.add local.tee 1981  i64.const 1 i64.add local.tee 1982  i64.const 1 i64.add local.tee 1983  i64.const 1 i64.add local.tee 1984  i64.const 1 i64.add local.tee 1985
    i64.const 1 i64.add local.tee 1986  i64.const 1 i64.add local.tee 1987  i64.const 1 i64.add local.tee 1988  i64.const 1 i64.add local.tee 1989  i64.const 1 i64.add local.tee 1990
    i64.const 1 i64.add local.tee 1991  i64.const 1 i64.add local.tee 1992  i64.const 1 i64.add local.tee 1993  i64.const 1 i64.add local.tee 1994  i64.const 1 i64.add local.tee 1995
    i64.const 1 i64.add local.tee 1996  i64.const 1 i64.add local.tee 1997  i64.const 1 i64.add local.tee 1998  i64.const 1 i64.add local.tee 1999  i64.const 1 i64.add local.tee 2000
    call $down
    local.get 1 i64.add  local.get 2 i64.add  local.get 3 i64.add  local.get 4 i64.add  local.get 5 i64.add  local.get 6 i64.add  local.get 7 i64.add  local.get 8 i64.add
    local.get 9 i64.add  local.get 10 i64.add  local.get 11 i64.add  local.get 12 i64.add  local.get 13 i64.add  local.get 14 i64.add  local.get 15 i64.add  local.get 16 i64.add
    local.get 17 i64.add  local.get 18 i64.add  local.get 19 i64.add  local.get 20 i64.add  local.get 21 i64.add  local.get 22 i64.add  local.get 23 i64.add  local.get 24 i64.add
    local.get 25 i64.add  local.get 26 i64.add  local.get 27 i64.add  local.get 28 i64.add  local.get 29 i64.add  local.get 30 i64.add  local.get 31 i64.add  local.get 32 i64.add
    local.get 33 i64.add  local.get 34 i64.add  local.get 35 i64.add  local.get 36 i64.add  local.get 37 i64.add  local.get 38 i64.add  local.get 39 i64.add  local.get 40 i64.add
    local.get 41 i64.add  local.get 42 i64.add  local.get 43 i64.add  local.get 44 i64.add  local.get 45 i64.add  local.get 46 i64.add  local.get 47 i64.add  local.get 48 i64.add
    local.get 49 i64.add  local.get 50 i64.add  local.get 51 i64.add  local.get 52 i64.add  local.get 53 i64.add  local.get 54 i64.add  local.get 55 i64.add  local.get 56 i64.add
    local.get 57 i64.add  local.get 58 i64.add  local.get 59 i64.add  local.get 60 i64.add  local.get 61 i64.add  local.get 62 i64.add  local.get 63 i64.add  local.get 64 i64.add
    local.get 65 i64.add  local.get 66 i64.add  local.get 67 i64.add  local.get 68 i64.add  local.get 69 i64.add  local.get 70 i64.add  local.get 71 i64.add  local.get 72 i64.add
    local.get 73 i64.add  local.get 74 i64.add  local.get 75 i64.add  local.get 76 i64.add  local.get 77 i64.add  local.get 78 i64.add  local.get 79 i64.add  local.get 80 i64.add
    local.get 81 i64.add  local.get 82 i64.add  local.get 83 i64.add  local.get 84 i64.add  local.get 85 i64.add  local.get 86 i64.add  local.get 87 i64.add  local.get 88 i64.add
    local.get 89 i64.add  local.get 90 i64.add  local.get 91 i64.add  local.get 92 i64.add  local.get 93 i64.add  local.get 94 i64.add  local.get 95 i64.add  local.get 96 i64.add
    local.get 97 i64.add  local.get 98 i64.add  local.get 99 i64.add  local.get 100 i64.add  local.get 101 i64.add  local.get 102 i64.add  local.get 103 i64.add  local.get 104 i64.add
    local.get 105 i64.add  local.get 106 i64.add  local.get 107 i64.add  local.get 108 i64.add  local.get 109 i64.add  local.get 110 i64.add  local.get 111 i64.add  local.get 112 i64.add
    local.get 113 i64.add  local.get 114 i64.add  local.get 115 i64.add  local.get 116 i64.add  local.get 117 i64.add  local.get 118 i64.add  local.get 119 i64.add  local.get 120 i64.add
    local.get 121 i64.add  local.get 122 i64.add  local.get 123 i64.add  local.get 124 i64.add  local.get 125 i64.add  local.get 126 i64.add  local.get 127 i64.add  local.get 128 i64.add
    local.get 129 i64.add  local.get 130 i64.add  local.get 131 i64.add  local.get 132 i64.add  local.get 133 i64.add  local.get 134 i64.add  local.get 135 i64.add  local.get 136 i64.add
    local.get 137 i64.add  local.get 138 i64.add  local.get 139 i64.add  local.get 140 i64.add  local.get 141 i64.add  local.get 142 i64.add  local.get 143 i64.add  local.get 144 i64.add
    local.get 145 i64.add  local.get 146 i64.add  local.get 147 i64.add  local.get 148 i64.add  local.get 149 i64.add  local.get 150 i64.add  local.get 151 i64.add  local.get 152 i64.add
    local.get 153 i64.add  local.get 154 i64.add  local.get 155 i64.add  local.get 156 i64.add  local.get 157 i64.add  local.get 158 i64.add  local.get 159 i64.add  local.get 160 i64.add
    local.get 161 i64.add  local.get 162 i64.add  local.get 163 i64.add  local.get 164 i64.add  local.get 165 i64.add  local.get 166 i64.add  local.get 167 i64.add  local.get 168 i64.add
    local.get 169 i64.add  local.get 170 i64.add  local.get 171 i64.add  local.get 172 i64.add  local.get 173 i64.add  local.get 174 i64.add  local.get 175 i64.add  local.get 176 i64.add
    local.get 177 i64.add  local.get 178 i64.add  local.get 179 i64.add  local.get 180 i64.add  local.get 181 i64.add  local.get 182 i64.add  local.get 183 i64.add  local.get 184 i64.add
    local.get 185 i64.add  local.get 186 i64.add  local.get 187 i64.add  local.get 188 i64.add  local.get 189 i64.add  local.get 190 i64.add  local.get 191 i64.add  local.get 192 i64.add
    local.get 193 i64.add  local.get 194 i64.add  local.get 195 i64.add  local.get 196 i64.add  local.get 197 i64.add  local.get 198 i64.add  local.get 199 i64.add  local.get 200 i64.add
    local.get 201 i64.add  local.get 202 i64.add  local.get 203 i64.add  local.get 204 i64.add  local.get 205 i64.add  local.get 206 i64.add  local.get 207 i64.add  local.get 208 i64.add
    local.get 209 i64.add  local.get 210 i64.add  local.get 211 i64.add  local.get 212 i64.add  local.get 213 i64.add  local.get 214 i64.add  local.get 215 i64.add  local.get 216 i64.add
    local.get 217 i64.add  local.get 218 i64.add  local.get 219 i64.add  local.get 220 i64.add  local.get 221 i64.add  local.get 222 i64.add  local.get 223 i64.add  local.get 224 i64.add
    local.get 225 i64.add  local.get 226 i64.add  local.get 227 i64.add  local.get 228 i64.add  local.get 229 i64.add  local.get 230 i64.add  local.get 231 i64.add  local.get 232 i64.add
    local.get 233 i64.add  local.get 234 i64.add  local.get 235 i64.add  local.get 236 i64.add  local.get 237 i64.add  local.get 238 i64.add  local.get 239 i64.add  local.get 240 i64.add
    local.get 241 i64.add  local.get 242 i64.add  local.get 243 i64.add  local.get 244 i64.add  local.get 245 i64.add  local.get 246 i64.add  local.get 247 i64.add  local.get 248 i64.add
    local.get 249 i64.add  local.get 250 i64.add  local.get 251 i64.add  local.get 252 i64.add  local.get 253 i64.add  local.get 254 i64.add  local.get 255 i64.add  local.get 256 i64.add
    local.get 257 i64.add  local.get 258 i64.add  local.get 259 i64.add  local.get 260 i64.add  local.get 261 i64.add  local.get 262 i64.add  local.get 263 i64.add  local.get 264 i64.add
    local.get 265 i64.add  local.get 266 i64.add  local.get 267 i64.add  local.get 268 i64.add  local.get 269 i64.add  local.get 270 i64.add  local.get 271 i64.add  local.get 272 i64.add
    local.get 273 i64.add  local.get 274 i64.add  local.get 275 i64.add  local.get 276 i64.add  local.get 277 i64.add  local.get 278 i64.add  local.get 279 i64.add  local.get 280 i64.add
    local.get 281 i64.add  local.get 282 i64.add  local.get 283 i64.add  local.get 284 i64.add  local.get 285 i64.add  local.get 286 i64.add  local.get 287 i64.add  local.get 288 i64.add
    local.get 289 i64.add  local.get 290 i64.add  local.get 291 i64.add  local.get 292 i64.add  local.get 293 i64.add  local.get 294 i64.add  local.get 295 i64.add  local.get 296 i64.add
    local.get 297 i64.add  local.get 298 i64.add  local.get 299 i64.add  local.get 300 i64.add  local.get 301 i64.add  local.get 302 i64.add  local.get 303 i64.add  local.get 304 i64.add
    local.get 305 i64.add  local.get 306 i64.add  local.get 307 i64.add  local.get 308 i64.add  local.get 309 i64.add  local.get 310 i64.add  local.get 311 i64.add  local.get 312 i64.add
    local.get 313 i64.add  local.get 314 i64.add  local.get 315 i64.add  local.get 316 i64.add  local.get 317 i64.add  local.get 318 i64.add  local.get 319 i64.add  local.get 320 i64.add
    local.get 321 i64.add  local.get 322 i64.add  local.get 323 i64.add  local.get 324 i64.add  local.get 325 i64.add  local.get 326 i64.add  local.get 327 i64.add  local.get 328 i64.add
    local.get 329 i64.add  local.get 330 i64.add  local.get 331 i64.add  local.get 332 i64.add  local.get 333 i64.add  local.get 334 i64.add  local.get 335 i64.add  local.get 336 i64.add
    local.get 337 i64.add  local.get 338 i64.add  local.get 339 i64.add  local.get 340 i64.add  local.get 341 i64.add  local.get 342 i64.add  local.get 343 i64.add  local.get 344 i64.add
    local.get 345 i64.add  local.get 346 i64.add  local.get 347 i64.add  local.get 348 i64.add  local.get 349 i64.add  local.get 350 i64.add  local.get 351 i64.add  local.get 352 i64.add
    local.get 353 i64.add  local.get 354 i64.add  local.get 355 i64.add  local.get 356 i64.add  local.get 357 i64.add  local.get 358 i64.add  local.get 359 i64.add  local.get 360 i64.add
    local.get 361 i64.add  local.get 362 i64.add  local.get 363 i64.add  local.get 364 i64.add  local.get 365 i64.add  local.get 366 i64.add  local.get 367 i64.add  local.get 368 i64.add
    local.get 369 i64.add  local.get 370 i64.add  local.get 371 i64.add  local.get 372 i64.add  local.get 373 i64.add  local.get 374 i64.add  local.get 375 i64.add  local.get 376 i64.add
    local.get 377 i64.add  local.get 378 i64.add  local.get 379 i64.add  local.get 380 i64.add  local.get 381 i64.add  local.get 382 i64.add  local.get 383 i64.add  local.get 384 i64.add
    local.get 385 i64.add  local.get 386 i64.add  local.get 387 i64.add  local.get 388 i64.add  local.get 389 i64.add  local.get 390 i64.add  local.get 391 i64.add  local.get 392 i64.add
    local.get 393 i64.add  local.get 394 i64.add  local.get 395 i64.add  local.get 396 i64.add  local.get 397 i64.add  local.get 398 i64.add  local.get 399 i64.add  local.get 400 i64.add
    local.get 401 i64.add  local.get 402 i64.add  local.get 403 i64.add  local.get 404 i64.add  local.get 405 i64.add  local.get 406 i64.add  local.get 407 i64.add  local.get 408 i64.add
    local.get 409 i64.add  local.get 410 i64.add  local.get 411 i64.add  local.get 412 i64.add  local.get 413 i64.add  local.get 414 i64.add  local.get 415 i64.add  local.get 416 i64.add
    local.get 417 i64.add  local.get 418 i64.add  local.get 419 i64.add  local.get 420 i64.add  local.get 421 i64.add  local.get 422 i64.add  local.get 423 i64.add  local.get 424 i64.add
    local.get 425 i64.add  local.get 426 i64.add  local.get 427 i64.add  local.get 428 i64.add  local.get 429 i64.add  local.get 430 i64.add  local.get 431 i64.add  local.get 432 i64.add
    local.get 433 i64.add  local.get 434 i64.add  local.get 435 i64.add  local.get 436 i64.add  local.get 437 i64.add  local.get 438 i64.add  local.get 439 i64.add  local.get 440 i64.add
    local.get 441 i64.add  local.get 442 i64.add  local.get 443 i64.add  local.get 444 i64.add  local.get 445 i64.add  local.get 446 i64.add  local.get 447 i64.add  local.get 448 i64.add
    local.get 449 i64.add  local.get 450 i64.add  local.get 451 i64.add  local.get 452 i64.add  local.get 453 i64.add  local.get 454 i64.add  local.get 455 i64.add  local.get 456 i64.add
    local.get 457 i64.add  local.get 458 i64.add  local.get 459 i64.add  local.get 460 i64.add  local.get 461 i64.add  local.get 462 i64.add  local.get 463 i64.add  local.get 464 i64.add
    local.get 465 i64.add  local.get 466 i64.add  local.get 467 i64.add  local.get 468 i64.add  local.get 469 i64.add  local.get 470 i64.add  local.get 471 i64.add  local.get 472 i64.add
    local.get 473 i64.add  local.get 474 i64.add  local.get 475 i64.add  local.get 476 i64.add  local.get 477 i64.add  local.get 478 i64.add  local.get 479 i64.add  local.get 480 i64.add
    local.get 481 i64.add  local.get 482 i64.add  local.get 483 i64.add  local.get 484 i64.add  local.get 485 i64.add  local.get 486 i64.add  local.get 487 i64.add  local.get 488 i64.add
    local.get 489 i64.add  local.get 490 i64.add  local.get 491 i64.add  local.get 492 i64.add  local.get 493 i64.add  local.get 494 i64.add  local.get 495 i64.add  local.get 496 i64.add
    local.get 497 i64.add  local.get 498 i64.add  local.get 499 i64.add  local.get 500 i64.add  local.get 501 i64.add  local.get 502 i64.add  local.get 503 i64.add  local.get 504 i64.add
    local.get 505 i64.add  local.get 506 i64.add  local.get 507 i64.add  local.get 508 i64.add  local.get 509 i64.add  local.get 510 i64.add  local.get 511 i64.add  local.get 512 i64.add
    local.get 513 i64.add  local.get 514 i64.add  local.get 515 i64.add  local.get 516 i64.add  local.get 517 i64.add  local.get 518 i64.add  local.get 519 i64.add  local.get 520 i64.add
    local.get 521 i64.add  local.get 522 i64.add  local.get 523 i64.add  local.get 524 i64.add  local.get 525 i64.add  local.get 526 i64.add  local.get 527 i64.add  local.get 528 i64.add
    local.get 529 i64.add  local.get 530 i64.add  local.get 531 i64.add  local.get 532 i64.add  local.get 533 i64.add  local.get 534 i64.add  local.get 535 i64.add  local.get 536 i64.add
    local.get 537 i64.add  local.get 538 i64.add  local.get 539 i64.add  local.get 540 i64.add  local.get 541 i64.add  local.get 542 i64.add  local.get 543 i64.add  local.get 544 i64.add
    local.get 545 i64.add  local.get 546 i64.add  local.get 547 i64.add  local.get 548 i64.add  local.get 549 i64.add  local.get 550 i64.add  local.get 551 i64.add  local.get 552 i64.add
    local.get 553 i64.add  local.get 554 i64.add  local.get 555 i64.add  local.get 556 i64.add  local.get 557 i64.add  local.get 558 i64.add  local.get 559 i64.add  local.get 560 i64.add
    local.get 561 i64.add  local.get 562 i64.add  local.get 563 i64.add  local.get 564 i64.add  local.get 565 i64.add  local.get 566 i64.add  local.get 567 i64.add  local.get 568 i64.add
    local.get 569 i64.add  local.get 570 i64.add  local.get 571 i64.add  local.get 572 i64.add  local.get 573 i64.add  local.get 574 i64.add  local.get 575 i64.add  local.get 576 i64.add
    local.get 577 i64.add  local.get 578 i64.add  local.get 579 i64.add  local.get 580 i64.add  local.get 581 i64.add  local.get 582 i64.add  local.get 583 i64.add  local.get 584 i64.add
    local.get 585 i64.add  local.get 586 i64.add  local.get 587 i64.add  local.get 588 i64.add  local.get 589 i64.add  local.get 590 i64.add  local.get 591 i64.add  local.get 592 i64.add
    local.get 593 i64.add  local.get 594 i64.add  local.get 595 i64.add  local.get 596 i64.add  local.get 597 i64.add  local.get 598 i64.add  local.get 599 i64.add  local.get 600 i64.add
    local.get 601 i64.add  local.get 602 i64.add  local.get 603 i64.add  local.get 604 i64.add  local.get 605 i64.add  local.get 606 i64.add  local.get 607 i64.add  local.get 608 i64.add
    local.get 609 i64.add  local.get 610 i64.add  local.get 611 i64.add  local.get 612 i64.add  local.get 613 i64.add  local.get 614 i64.add  local.get 615 i64.add  local.get 616 i64.add
    local.get 617 i64.add  local.get 618 i64.add  local.get 619 i64.add  local.get 620 i64.add  local.get 621 i64.add  local.get 622 i64.add  local.get 623 i64.add  local.get 624 i64.add
    local.get 625 i64.add  local.get 626 i64.add  local.get 627 i64.add  local.get 628 i64.add  local.get 629 i64.add  local.get 630 i64.add  local.get 631 i64.add  local.get 632 i64.add
    local.get 633 i64.add  local.get 634 i64.add  local.get 635 i64.add  local.get 636 i64.add  local.get 637 i64.add  local.get 638 i64.add  local.get 639 i64.add  local.get 640 i64.add
    local.get 641 i64.add  local.get 642 i64.add  local.get 643 i64.add  local.get 644 i64.add  local.get 645 i64.add  local.get 646 i64.add  local.get 647 i64.add  local.get 648 i64.add
    local.get 649 i64.add  local.get 650 i64.add  local.get 651 i64.add  local.get 652 i64.add  local.get 653 i64.add  local.get 654 i64.add  local.get 655 i64.add  local.get 656 i64.add
    local.get 657 i64.add  local.get 658 i64.add  local.get 659 i64.add  local.get 660 i64.add  local.get 661 i64.add  local.get 662 i64.add  local.get 663 i64.add  local.get 664 i64.add
    local.get 665 i64.add  local.get 666 i64.add  local.get 667 i64.add  local.get 668 i64.add  local.get 669 i64.add  local.get 670 i64.add  local.get 671 i64.add  local.get 672 i64.add
    local.get 673 i64.add  local.get 674 i64.add  local.get 675 i64.add  local.get 676 i64.add  local.get 677 i64.add  local.get 678 i64.add  local.get 679 i64.add  local.get 680 i64.add
    local.get 681 i64.add  local.get 682 i64.add  local.get 683 i64.add  local.get 684 i64.add  local.get 685 i64.add  local.get 686 i64.add  local.get 687 i64.add  local.get 688 i64.add
    local.get 689 i64.add  local.get 690 i64.add  local.get 691 i64.add  local.get 692 i64.add  local.get 693 i64.add  local.get 694 i64.add  local.get 695 i64.add  local.get 696 i64.add
    local.get 697 i64.add  local.get 698 i64.add  local.get 699 i64.add  local.get 700 i64.add  local.get 701 i64.add  local.get 702 i64.add  local.get 703 i64.add  local.get 704 i64.add
    local.get 705 i64.add  local.get 706 i64.add  local.get 707 i64.add  local.get 708 i64.add  local.get 709 i64.add  local.get 710 i64.add  local.get 711 i64.add  local.get 712 i64.add
    local.get 713 i64.add  local.get 714 i64.add  local.get 715 i64.add  local.get 716 i64.add  local.get 717 i64.add  local.get 718 i64.add  local.get 719 i64.add  local.get 720 i64.add
    local.get 721 i64.add  local.get 722 i64.add  local.get 723 i64.add  local.get 724 i64.add  local.get 725 i64.add  local.get 726 i64.add  local.get 727 i64.add  local.get 728 i64.add
    local.get 729 i64.add  local.get 730 i64.add  local.get 731 i64.add  local.get 732 i64.add  local.get 733 i64.add  local.get 734 i64.add  local.get 735 i64.add  local.get 736 i64.add
    local.get 737 i64.add  local.get 738 i64.add  local.get 739 i64.add  local.get 740 i64.add  local.get 741 i64.add  local.get 742 i64.add  local.get 743 i64.add  local.get 744 i64.add
    local.get 745 i64.add  local.get 746 i64.add  local.get 747 i64.add  local.get 748 i64.add  local.get 749 i64.add  local.get 750 i64.add  local.get 751 i64.add  local.get 752 i64.add
    local.get 753 i64.add  local.get 754 i64.add  local.get 755 i64.add  local.get 756 i64.add  local.get 757 i64.add  local.get 758 i64.add  local.get 759 i64.add  local.get 760 i64.add
    local.get 761 i64.add  local.get 762 i64.add  local.get 763 i64.add  local.get 764 i64.add  local.get 765 i64.add  local.get 766 i64.add  local.get 767 i64.add  local.get 768 i64.add
    local.get 769 i64.add  local.get 770 i64.add  local.get 771 i64.add  local.get 772 i64.add  local.get 773 i64.add  local.get 774 i64.add  local.get 775 i64.add  local.get 776 i64.add
    local.get 777 i64.add  local.get 778 i64.add  local.get 779 i64.add  local.get 780 i64.add  local.get 781 i64.add  local.get 782 i64.add  local.get 783 i64.add  local.get 784 i64.add
    local.get 785 i64.add  local.get 786 i64.add  local.get 787 i64.add  local.get 788 i64.add  local.get 789 i64.add  local.get 790 i64.add  local.get 791 i64.add  local.get 792 i64.add
    local.get 793 i64.add  local.get 794 i64.add  local.get 795 i64.add  local.get 796 i64.add  local.get 797 i64.add  local.get 798 i64.add  local.get 799 i64.add  local.get 800 i64.add
    local.get 801 i64.add  local.get 802 i64.add  local.get 803 i64.add  local.get 804 i64.add  local.get 805 i64.add  local.get 806 i64.add  local.get 807 i64.add  local.get 808 i64.add
    local.get 809 i64.add  local.get 810 i64.add  local.get 811 i64.add  local.get 812 i64.add  local.get 813 i64.add  local.get 814 i64.add  local.get 815 i64.add  local.get 816 i64.add
    local.get 817 i64.add  local.get 818 i64.add  local.get 819 i64.add  local.get 820 i64.add  local.get 821 i64.add  local.get 822 i64.add  local.get 823 i64.add  local.get 824 i64.add
    local.get 825 i64.add  local.get 826 i64.add  local.get 827 i64.add  local.get 828 i64.add  local.get 829 i64.add  local.get 830 i64.add  local.get 831 i64.add  local.get 832 i64.add
    local.get 833 i64.add  local.get 834 i64.add  local.get 835 i64.add  local.get 836 i64.add  local.get 837 i64.add  local.get 838 i64.add  local.get 839 i64.add  local.get 840 i64.add
    local.get 841 i64.add  local.get 842 i64.add  local.get 843 i64.add  local.get 844 i64.add  local.get 845 i64.add  local.get 846 i64.add  local.get 847 i64.add  local.get 848 i64.add
    local.get 849 i64.add  local.get 850 i64.add  local.get 851 i64.add  local.get 852 i64.add  local.get 853 i64.add  local.get 854 i64.add  local.get 855 i64.add  local.get 856 i64.add
    local.get 857 i64.add  local.get 858 i64.add  local.get 859 i64.add  local.get 860 i64.add  local.get 861 i64.add  local.get 862 i64.add  local.get 863 i64.add  local.get 864 i64.add
    local.get 865 i64.add  local.get 866 i64.add  local.get 867 i64.add  local.get 868 i64.add  local.get 869 i64.add  local.get 870 i64.add  local.get 871 i64.add  local.get 872 i64.add
    local.get 873 i64.add  local.get 874 i64.add  local.get 875 i64.add  local.get 876 i64.add  local.get 877 i64.add  local.get 878 i64.add  local.get 879 i64.add  local.get 880 i64.add
    local.get 881 i64.add  local.get 882 i64.add  local.get 883 i64.add  local.get 884 i64.add  local.get 885 i64.add  local.get 886 i64.add  local.get 887 i64.add  local.get 888 i64.add
    local.get 889 i64.add  local.get 890 i64.add  local.get 891 i64.add  local.get 892 i64.add  local.get 893 i64.add  local.get 894 i64.add  local.get 895 i64.add  local.get 896 i64.add
    local.get 897 i64.add  local.get 898 i64.add  local.get 899 i64.add  local.get 900 i64.add  local.get 901 i64.add  local.get 902 i64.add  local.get 903 i64.add  local.get 904 i64.add
    local.get 905 i64.add  local.get 906 i64.add  local.get 907 i64.add  local.get 908 i64.add  local.get 909 i64.add  local.get 910 i64.add  local.get 911 i64.add  local.get 912 i64.add
    local.get 913 i64.add  local.get 914 i64.add  local.get 915 i64.add  local.get 916 i64.add  local.get 917 i64.add  local.get 918 i64.add  local.get 919 i64.add  local.get 920 i64.add
    local.get 921 i64.add  local.get 922 i64.add  local.get 923 i64.add  local.get 924 i64.add  local.get 925 i64.add  local.get 926 i64.add  local.get 927 i64.add  local.get 928 i64.add
    local.get 929 i64.add  local.get 930 i64.add  local.get 931 i64.add  local.get 932 i64.add  local.get 933 i64.add  local.get 934 i64.add  local.get 935 i64.add  local.get 936 i64.add
    local.get 937 i64.add  local.get 938 i64.add  local.get 939 i64.add  local.get 940 i64.add  local.get 941 i64.add  local.get 942 i64.add  local.get 943 i64.add  local.get 944 i64.add
    local.get 945 i64.add  local.get 946 i64.add  local.get 947 i64.add  local.get 948 i64.add  local.get 949 i64.add  local.get 950 i64.add  local.get 951 i64.add  local.get 952 i64.add
    local.get 953 i64.add  local.get 954 i64.add  local.get 955 i64.add  local.get 956 i64.add  local.get 957 i64.add  local.get 958 i64.add  local.get 959 i64.add  local.get 960 i64.add
    local.get 961 i64.add  local.get 962 i64.add  local.get 963 i64.add  local.get 964 i64.add  local.get 965 i64.add  local.get 966 i64.add  local.get 967 i64.add  local.get 968 i64.add
    local.get 969 i64.add  local.get 970 i64.add  local.get 971 i64.add  local.get 972 i64.add  local.get 973 i64.add  local.get 974 i64.add  local.get 975 i64.add  local.get 976 i64.add
    local.get 977 i64.add  local.get 978 i64.add  local.get 979 i64.add  local.get 980 i64.add  local.get 981 i64.add  local.get 982 i64.add  local.get 983 i64.add  local.get 984 i64.add
    local.get 985 i64.add  local.get 986 i64.add  local.get 987 i64.add  local.get 988 i64.add  local.get 989 i64.add  local.get 990 i64.add  local.get 991 i64.add  local.get 992 i64.add
    local.get 993 i64.add  local.get 994 i64.add  local.get 995 i64.add  local.get 996 i64.add  local.get 997 i64.add  local.get 998 i64.add  local.get 999 i64.add  local.get 1000 i64.add
    local.get 1001 i64.add  local.get 1002 i64.add  local.get 1003 i64.add  local.get 1004 i64.add  local.get 1005 i64.add  local.get 1006 i64.add  local.get 1007 i64.add  local.get 1008 i64.add
    local.get 1009 i64.add  local.get 1010 i64.add  local.get 1011 i64.add  local.get 1012 i64.add  local.get 1013 i64.add  local.get 1014 i64.add  local.get 1015 i64.add  local.get 1016 i64.add
    local.get 1017 i64.add  local.get 1018 i64.add  local.get 1019 i64.add  local.get 1020 i64.add  local.get 1021 i64.add  local.get 1022 i64.add  local.get 1023 i64.add  local.get 1024 i64.add
    local.get 1025 i64.add  local.get 1026 i64.add  local.get 1027 i64.add  local.get 1028 i64.add  local.get 1029 i64.add  local.get 1030 i64.add  local.get 1031 i64.add  local.get 1032 i64.add
    local.get 1033 i64.add  local.get 1034 i64.add  local.get 1035 i64.add  local.get 1036 i64.add  local.get 1037 i64.add  local.get 1038 i64.add  local.get 1039 i64.add  local.get 1040 i64.add
    local.get 1041 i64.add  local.get 1042 i64.add  local.get 1043 i64.add  local.get 1044 i64.add  local.get 1045 i64.add  local.get 1046 i64.add  local.get 1047 i64.add  local.get 1048 i64.add
    local.get 1049 i64.add  local.get 1050 i64.add  local.get 1051 i64.add  local.get 1052 i64.add  local.get 1053 i64.add  local.get 1054 i64.add  local.get 1055 i64.add  local.get 1056 i64.add
    local.get 1057 i64.add  local.get 1058 i64.add  local.get 1059 i64.add  local.get 1060 i64.add  local.get 1061 i64.add  local.get 1062 i64.add  local.get 1063 i64.add  local.get 1064 i64.add
    local.get 1065 i64.add  local.get 1066 i64.add  local.get 1067 i64.add  local.get 1068 i64.add  local.get 1069 i64.add  local.get 1070 i64.add  local.get 1071 i64.add  local.get 1072 i64.add
    local.get 1073 i64.add  local.get 1074 i64.add  local.get 1075 i64.add  local.get 1076 i64.add  local.get 1077 i64.add  local.get 1078 i64.add  local.get 1079 i64.add  local.get 1080 i64.add
    local.get 1081 i64.add  local.get 1082 i64.add  local.get 1083 i64.add  local.get 1084 i64.add  local.get 1085 i64.add  local.get 1086 i64.add  local.get 1087 i64.add  local.get 1088 i64.add
    local.get 1089 i64.add  local.get 1090 i64.add  local.get 1091 i64.add  local.get 1092 i64.add  local.get 1093 i64.add  local.get 1094 i64.add  local.get 1095 i64.add  local.get 1096 i64.add
    local.get 1097 i64.add  local.get 1098 i64.add  local.get 1099 i64.add  local.get 1100 i64.add  local.get 1101 i64.add  local.get 1102 i64.add  local.get 1103 i64.add  local.get 1104 i64.add
    local.get 1105 i64.add  local.get 1106 i64.add  local.get 1107 i64.add  local.get 1108 i64.add  local.get 1109 i64.add  local.get 1110 i64.add  local.get 1111 i64.add  local.get 1112 i64.add
    local.get 1113 i64.add  local.get 1114 i64.add  local.get 1115 i64.add  local.get 1116 i64.add  local.get 1117 i64.add  local.get 1118 i64.add  local.get 1119 i64.add  local.get 1120 i64.add
    local.get 1121 i64.add  local.get 1122 i64.add  local.get 1123 i64.add  local.get 1124 i64.add  local.get 1125 i64.add  local.get 1126 i64.add  local.get 1127 i64.add  local.get 1128 i64.add
    local.get 1129 i64.add  local.get 1130 i64.add  local.get 1131 i64.add  local.get 1132 i64.add  local.get 1133 i64.add  local.get 1134 i64.add  local.get 1135 i64.add  local.get 1136 i64.add
    local.get 1137 i64.add  local.get 1138 i64.add  local.get 1139 i64.add  local.get 1140 i64.add  local.get 1141 i64.add  local.get 1142 i64.add  local.get 1143 i64.add  local.get 1144 i64.add
    local.get 1145 i64.add  local.get 1146 i64.add  local.get 1147 i64.add  local.get 1148 i64.add  local.get 1149 i64.add  local.get 1150 i64.add  local.get 1151 i64.add  local.get 1152 i64.add
    local.get 1153 i64.add  local.get 1154 i64.add  local.get 1155 i64.add  local.get 1156 i64.add  local.get 1157 i64.add  local.get 1158 i64.add  local.get 1159 i64.add  local.get 1160 i64.add
    local.get 1161 i64.add  local.get 1162 i64.add  local.get 1163 i64.add  local.get 1164 i64.add  local.get 1165 i64.add  local.get 1166 i64.add  local.get 1167 i64.add  local.get 1168 i64.add
    local.get 1169 i64.add  local.get 1170 i64.add  local.get 1171 i64.add  local.get 1172 i64.add  local.get 1173 i64.add  local.get 1174 i64.add  local.get 1175 i64.add  local.get 1176 i64.add
    local.get 1177 i64.add  local.get 1178 i64.add  local.get 1179 i64.add  local.get 1180 i64.add  local.get 1181 i64.add  local.get 1182 i64.add  local.get 1183 i64.add  local.get 1184 i64.add
    local.get 1185 i64.add  local.get 1186 i64.add  local.get 1187 i64.add  local.get 1188 i64.add  local.get 1189 i64.add  local.get 1190 i64.add  local.get 1191 i64.add  local.get 1192 i64.add
    local.get 1193 i64.add  local.get 1194 i64.add  local.get 1195 i64.add  local.get 1196 i64.add  local.get 1197 i64.add  local.get 1198 i64.add  local.get 1199 i64.add  local.get 1200 i64.add
    local.get 1201 i64.add  local.get 1202 i64.add  local.get 1203 i64.add  local.get 1204 i64.add  local.get 1205 i64.add  local.get 1206 i64.add  local.get 1207 i64.add  local.get 1208 i64.add
    local.get 1209 i64.add  local.get 1210 i64.add  local.get 1211 i64.add  local.get 1212 i64.add  local.get 1213 i64.add  local.get 1214 i64.add  local.get 1215 i64.add  local.get 1216 i64.add
    local.get 1217 i64.add  local.get 1218 i64.add  local.get 1219 i64.add  local.get 1220 i64.add  local.get 1221 i64.add  local.get 1222 i64.add  local.get 1223 i64.add  local.get 1224 i64.add
    local.get 1225 i64.add  local.get 1226 i64.add  local.get 1227 i64.add  local.get 1228 i64.add  local.get 1229 i64.add  local.get 1230 i64.add  local.get 1231 i64.add  local.get 1232 i64.add
    local.get 1233 i64.add  local.get 1234 i64.add  local.get 1235 i64.add  local.get 1236 i64.add  local.get 1237 i64.add  local.get 1238 i64.add  local.get 1239 i64.add  local.get 1240 i64.add
    local.get 1241 i64.add  local.get 1242 i64.add  local.get 1243 i64.add  local.get 1244 i64.add  local.get 1245 i64.add  local.get 1246 i64.add  local.get 1247 i64.add  local.get 1248 i64.add
    local.get 1249 i64.add  local.get 1250 i64.add  local.get 1251 i64.add  local.get 1252 i64.add  local.get 1253 i64.add  local.get 1254 i64.add  local.get 1255 i64.add  local.get 1256 i64.add
    local.get 1257 i64.add  local.get 1258 i64.add  local.get 1259 i64.add  local.get 1260 i64.add  local.get 1261 i64.add  local.get 1262 i64.add  local.get 1263 i64.add  local.get 1264 i64.add
    local.get 1265 i64.add  local.get 1266 i64.add  local.get 1267 i64.add  local.get 1268 i64.add  local.get 1269 i64.add  local.get 1270 i64.add  local.get 1271 i64.add  local.get 1272 i64.add
    local.get 1273 i64.add  local.get 1274 i64.add  local.get 1275 i64.add  local.get 1276 i64.add  local.get 1277 i64.add  local.get 1278 i64.add  local.get 1279 i64.add  local.get 1280 i64.add
    local.get 1281 i64.add  local.get 1282 i64.add  local.get 1283 i64.add  local.get 1284 i64.add  local.get 1285 i64.add  local.get 1286 i64.add  local.get 1287 i64.add  local.get 1288 i64.add
    local.get 1289 i64.add  local.get 1290 i64.add  local.get 1291 i64.add  local.get 1292 i64.add  local.get 1293 i64.add  local.get 1294 i64.add  local.get 1295 i64.add  local.get 1296 i64.add
    local.get 1297 i64.add  local.get 1298 i64.add  local.get 1299 i64.add  local.get 1300 i64.add  local.get 1301 i64.add  local.get 1302 i64.add  local.get 1303 i64.add  local.get 1304 i64.add
    local.get 1305 i64.add  local.get 1306 i64.add  local.get 1307 i64.add  local.get 1308 i64.add  local.get 1309 i64.add  local.get 1310 i64.add  local.get 1311 i64.add  local.get 1312 i64.add
    local.get 1313 i64.add  local.get 1314 i64.add  local.get 1315 i64.add  local.get 1316 i64.add  local.get 1317 i64.add  local.get 1318 i64.add  local.get 1319 i64.add  local.get 1320 i64.add
    local.get 1321 i64.add  local.get 1322 i64.add  local.get 1323 i64.add  local.get 1324 i64.add  local.get 1325 i64.add  local.get 1326 i64.add  local.get 1327 i64.add  local.get 1328 i64.add
    local.get 1329 i64.add  local.get 1330 i64.add  local.get 1331 i64.add  local.get 1332 i64.add  local.get 1333 i64.add  local.get 1334 i64.add  local.get 1335 i64.add  local.get 1336 i64.add
    local.get 1337 i64.add  local.get 1338 i64.add  local.get 1339 i64.add  local.get 1340 i64.add  local.get 1341 i64.add  local.get 1342 i64.add  local.get 1343 i64.add  local.get 1344 i64.add
    local.get 1345 i64.add  local.get 1346 i64.add  local.get 1347 i64.add  local.get 1348 i64.add  local.get 1349 i64.add  local.get 1350 i64.add  local.get 1351 i64.add  local.get 1352 i64.add
    local.get 1353 i64.add  local.get 1354 i64.add  local.get 1355 i64.add  local.get 1356 i64.add  local.get 1357 i64.add  local.get 1358 i64.add  local.get 1359 i64.add  local.get 1360 i64.add
    local.get 1361 i64.add  local.get 1362 i64.add  local.get 1363 i64.add  local.get 1364 i64.add  local.get 1365 i64.add  local.get 1366 i64.add  local.get 1367 i64.add  local.get 1368 i64.add
    local.get 1369 i64.add  local.get 1370 i64.add  local.get 1371 i64.add  local.get 1372 i64.add  local.get 1373 i64.add  local.get 1374 i64.add  local.get 1375 i64.add  local.get 1376 i64.add
    local.get 1377 i64.add  local.get 1378 i64.add  local.get 1379 i64.add  local.get 1380 i64.add  local.get 1381 i64.add  local.get 1382 i64.add  local.get 1383 i64.add  local.get 1384 i64.add
    local.get 1385 i64.add  local.get 1386 i64.add  local.get 1387 i64.add  local.get 1388 i64.add  local.get 1389 i64.add  local.get 1390 i64.add  local.get 1391 i64.add  local.get 1392 i64.add
    local.get 1393 i64.add  local.get 1394 i64.add  local.get 1395 i64.add  local.get 1396 i64.add  local.get 1397 i64.add  local.get 1398 i64.add  local.get 1399 i64.add  local.get 1400 i64.add
    local.get 1401 i64.add  local.get 1402 i64.add  local.get 1403 i64.add  local.get 1404 i64.add  local.get 1405 i64.add  local.get 1406 i64.add  local.get 1407 i64.add  local.get 1408 i64.add
    local.get 1409 i64.add  local.get 1410 i64.add  local.get 1411 i64.add  local.get 1412 i64.add  local.get 1413 i64.add  local.get 1414 i64.add  local.get 1415 i64.add  local.get 1416 i64.add
    local.get 1417 i64.add  local.get 1418 i64.add  local.get 1419 i64.add  local.get 1420 i64.add  local.get 1421 i64.add  local.get 1422 i64.add  local.get 1423 i64.add  local.get 1424 i64.add
    local.get 1425 i64.add  local.get 1426 i64.add  local.get 1427 i64.add  local.get 1428 i64.add  local.get 1429 i64.add  local.get 1430 i64.add  local.get 1431 i64.add  local.get 1432 i64.add
    local.get 1433 i64.add  local.get 1434 i64.add  local.get 1435 i64.add  local.get 1436 i64.add  local.get 1437 i64.add  local.get 1438 i64.add  local.get 1439 i64.add  local.get 1440 i64.add
    local.get 1441 i64.add  local.get 1442 i64.add  local.get 1443 i64.add  local.get 1444 i64.add  local.get 1445 i64.add  local.get 1446 i64.add  local.get 1447 i64.add  local.get 1448 i64.add
    local.get 1449 i64.add  local.get 1450 i64.add  local.get 1451 i64.add  local.get 1452 i64.add  local.get 1453 i64.add  local.get 1454 i64.add  local.get 1455 i64.add  local.get 1456 i64.add
    local.get 1457 i64.add  local.get 1458 i64.add  local.get 1459 i64.add  local.get 1460 i64.add  local.get 1461 i64.add  local.get 1462 i64.add  local.get 1463 i64.add  local.get 1464 i64.add
    local.get 1465 i64.add  local.get 1466 i64.add  local.get 1467 i64.add  local.get 1468 i64.add  local.get 1469 i64.add  local.get 1470 i64.add  local.get 1471 i64.add  local.get 1472 i64.add
    local.get 1473 i64.add  local.get 1474 i64.add  local.get 1475 i64.add  local.get 1476 i64.add  local.get 1477 i64.add  local.get 1478 i64.add  local.get 1479 i64.add  local.get 1480 i64.add
    local.get 1481 i64.add  local.get 1482 i64.add  local.get 1483 i64.add  local.get 1484 i64.add  local.get 1485 i64.add  local.get 1486 i64.add  local.get 1487 i64.add  local.get 1488 i64.add
    local.get 1489 i64.add  local.get 1490 i64.add  local.get 1491 i64.add  local.get 1492 i64.add  local.get 1493 i64.add  local.get 1494 i64.add  local.get 1495 i64.add  local.get 1496 i64.add
    local.get 1497 i64.add  local.get 1498 i64.add  local.get 1499 i64.add  local.get 1500 i64.add  local.get 1501 i64.add  local.get 1502 i64.add  local.get 1503 i64.add  local.get 1504 i64.add
    local.get 1505 i64.add  local.get 1506 i64.add  local.get 1507 i64.add  local.get 1508 i64.add  local.get 1509 i64.add  local.get 1510 i64.add  local.get 1511 i64.add  local.get 1512 i64.add
    local.get 1513 i64.add  local.get 1514 i64.add  local.get 1515 i64.add  local.get 1516 i64.add  local.get 1517 i64.add  local.get 1518 i64.add  local.get 1519 i64.add  local.get 1520 i64.add
    local.get 1521 i64.add  local.get 1522 i64.add  local.get 1523 i64.add  local.get 1524 i64.add  local.get 1525 i64.add  local.get 1526 i64.add  local.get 1527 i64.add  local.get 1528 i64.add
    local.get 1529 i64.add  local.get 1530 i64.add  local.get 1531 i64.add  local.get 1532 i64.add  local.get 1533 i64.add  local.get 1534 i64.add  local.get 1535 i64.add  local.get 1536 i64.add
    local.get 1537 i64.add  local.get 1538 i64.add  local.get 1539 i64.add  local.get 1540 i64.add  local.get 1541 i64.add  local.get 1542 i64.add  local.get 1543 i64.add  local.get 1544 i64.add
    local.get 1545 i64.add  local.get 1546 i64.add  local.get 1547 i64.add  local.get 1548 i64.add  local.get 1549 i64.add  local.get 1550 i64.add  local.get 1551 i64.add  local.get 1552 i64.add
    local.get 1553 i64.add  local.get 1554 i64.add  local.get 1555 i64.add  local.get 1556 i64.add  local.get 1557 i64.add  local.get 1558 i64.add  local.get 1559 i64.add  local.get 1560 i64.add
    local.get 1561 i64.add  local.get 1562 i64.add  local.get 1563 i64.add  local.get 1564 i64.add  local.get 1565 i64.add  local.get 1566 i64.add  local.get 1567 i64.add  local.get 1568 i64.add
    local.get 1569 i64.add  local.get 1570 i64.add  local.get 1571 i64.add  local.get 1572 i64.add  local.get 1573 i64.add  local.get 1574 i64.add  local.get 1575 i64.add  local.get 1576 i64.add
    local.get 1577 i64.add  local.get 1578 i64.add  local.get 1579 i64.add  local.get 1580 i64.add  local.get 1581 i64.add  local.get 1582 i64.add  local.get 1583 i64.add  local.get 1584 i64.add
    local.get 1585 i64.add  local.get 1586 i64.add  local.get 1587 i64.add  local.get 1588 i64.add  local.get 1589 i64.add  local.get 1590 i64.add  local.get 1591 i64.add  local.get 1592 i64.add
    local.get 1593 i64.add  local.get 1594 i64.add  local.get 1595 i64.add  local.get 1596 i64.add  local.get 1597 i64.add  local.get 1598 i64.add  local.get 1599 i64.add  local.get 1600 i64.add
    local.get 1601 i64.add  local.get 1602 i64.add  local.get 1603 i64.add  local.get 1604 i64.add  local.get 1605 i64.add  local.get 1606 i64.add  local.get 1607 i64.add  local.get 1608 i64.add
    local.get 1609 i64.add  local.get 1610 i64.add  local.get 1611 i64.add  local.get 1612 i64.add  local.get 1613 i64.add  local.get 1614 i64.add  local.get 1615 i64.add  local.get 1616 i64.add
    local.get 1617 i64.add  local.get 1618 i64.add  local.get 1619 i64.add  local.get 1620 i64.add  local.get 1621 i64.add  local.get 1622 i64.add  local.get 1623 i64.add  local.get 1624 i64.add
    local.get 1625 i64.add  local.get 1626 i64.add  local.get 1627 i64.add  local.get 1628 i64.add  local.get 1629 i64.add  local.get 1630 i64.add  local.get 1631 i64.add  local.get 1632 i64.add
    local.get 1633 i64.add  local.get 1634 i64.add  local.get 1635 i64.add  local.get 1636 i64.add  local.get 1637 i64.add  local.get 1638 i64.add  local.get 1639 i64.add  local.get 1640 i64.add
    local.get 1641 i64.add  local.get 1642 i64.add  local.get 1643 i64.add  local.get 1644 i64.add  local.get 1645 i64.add  local.get 1646 i64.add  local.get 1647 i64.add  local.get 1648 i64.add
    local.get 1649 i64.add  local.get 1650 i64.add  local.get 1651 i64.add  local.get 1652 i64.add  local.get 1653 i64.add  local.get 1654 i64.add  local.get 1655 i64.add  local.get 1656 i64.add
    local.get 1657 i64.add  local.get 1658 i64.add  local.get 1659 i64.add  local.get 1660 i64.add  local.get 1661 i64.add  local.get 1662 i64.add  local.get 1663 i64.add  local.get 1664 i64.add
    local.get 1665 i64.add  local.get 1666 i64.add  local.get 1667 i64.add  local.get 1668 i64.add  local.get 1669 i64.add  local.get 1670 i64.add  local.get 1671 i64.add  local.get 1672 i64.add
    local.get 1673 i64.add  local.get 1674 i64.add  local.get 1675 i64.add  local.get 1676 i64.add  local.get 1677 i64.add  local.get 1678 i64.add  local.get 1679 i64.add  local.get 1680 i64.add
    local.get 1681 i64.add  local.get 1682 i64.add  local.get 1683 i64.add  local.get 1684 i64.add  local.get 1685 i64.add  local.get 1686 i64.add  local.get 1687 i64.add  local.get 1688 i64.add
    local.get 1689 i64.add  local.get 1690 i64.add  local.get 1691 i64.add  local.get 1692 i64.add  local.get 1693 i64.add  local.get 1694 i64.add  local.get 1695 i64.add  local.get 1696 i64.add
    local.get 1697 i64.add  local.get 1698 i64.add  local.get 1699 i64.add  local.get 1700 i64.add  local.get 1701 i64.add  local.get 1702 i64.add  local.get 1703 i64.add  local.get 1704 i64.add
    local.get 1705 i64.add  local.get 1706 i64.add  local.get 1707 i64.add  local.get 1708 i64.add  local.get 1709 i64.add  local.get 1710 i64.add  local.get 1711 i64.add  local.get 1712 i64.add
    local.get 1713 i64.add  local.get 1714 i64.add  local.get 1715 i64.add  local.get 1716 i64.add  local.get 1717 i64.add  local.get 1718 i64.add  local.get 1719 i64.add  local.get 1720 i64.add
    local.get 1721 i64.add  local.get 1722 i64.add  local.get 1723 i64.add  local.get 1724 i64.add  local.get 1725 i64.add  local.get 1726 i64.add  local.get 1727 i64.add  local.get 1728 i64.add
    local.get 1729 i64.add  local.get 1730 i64.add  local.get 1731 i64.add  local.get 1732 i64.add  local.get 1733 i64.add  local.get 1734 i64.add  local.get 1735 i64.add  local.get 1736 i64.add
    local.get 1737 i64.add  local.get 1738 i64.add  local.get 1739 i64.add  local.get 1740 i64.add  local.get 1741 i64.add  local.get 1742 i64.add  local.get 1743 i64.add  local.get 1744 i64.add
    local.get 1745 i64.add  local.get 1746 i64.add  local.get 1747 i64.add  local.get 1748 i64.add  local.get 1749 i64.add  local.get 1750 i64.add  local.get 1751 i64.add  local.get 1752 i64.add
    local.get 1753 i64.add  local.get 1754 i64.add  local.get 1755 i64.add  local.get 1756 i64.add  local.get 1757 i64.add  local.get 1758 i64.add  local.get 1759 i64.add  local.get 1760 i64.add
    local.get 1761 i64.add  local.get 1762 i64.add  local.get 1763 i64.add  local.get 1764 i64.add  local.get 1765 i64.add  local.get 1766 i64.add  local.get 1767 i64.add  local.get 1768 i64.add
    local.get 1769 i64.add  local.get 1770 i64.add  local.get 1771 i64.add  local.get 1772 i64.add  local.get 1773 i64.add  local.get 1774 i64.add  local.get 1775 i64.add  local.get 1776 i64.add
    local.get 1777 i64.add  local.get 1778 i64.add  local.get 1779 i64.add  local.get 1780 i64.add  local.get 1781 i64.add  local.get 1782 i64.add  local.get 1783 i64.add  local.get 1784 i64.add
    local.get 1785 i64.add  local.get 1786 i64.add  local.get 1787 i64.add  local.get 1788 i64.add  local.get 1789 i64.add  local.get 1790 i64.add  local.get 1791 i64.add  local.get 1792 i64.add
    local.get 1793 i64.add  local.get 1794 i64.add  local.get 1795 i64.add  local.get 1796 i64.add  local.get 1797 i64.add  local.get 1798 i64.add  local.get 1799 i64.add  local.get 1800 i64.add
    local.get 1801 i64.add  local.get 1802 i64.add  local.get 1803 i64.add  local.get 1804 i64.add  local.get 1805 i64.add  local.get 1806 i64.add  local.get 1807 i64.add  local.get 1808 i64.add
    local.get 1809 i64.add  local.get 1810 i64.add  local.get 1811 i64.add  local.get 1812 i64.add  local.get 1813 i64.add  local.get 1814 i64.add  local.get 1815 i64.add  local.get 1816 i64.add
    local.get 1817 i64.add  local.get 1818 i64.add  local.get 1819 i64.add  local.get 1820 i64.add  local.get 1821 i64.add  local.get 1822 i64.add  local.get 1823 i64.add  local.get 1824 i64.add
    local.get 1825 i64.add  local.get 1826 i64.add  local.get 1827 i64.add  local.get 1828 i64.add  local.get 1829 i64.add  local.get 1830 i64.add  local.get 1831 i64.add  local.get 1832 i64.add
    local.get 1833 i64.add  local.get 1834 i64.add  local.get 1835 i64.add  local.get 1836 i64.add  local.get 1837 i64.add  local.get 1838 i64.add  local.get 1839 i64.add  local.get 1840 i64.add
    local.get 1841 i64.add  local.get 1842 i64.add  local.get 1843 i64.add  local.get 1844 i64.add  local.get 1845 i64.add  local.get 1846 i64.add  local.get 1847 i64.add  local.get 1848 i64.add
    local.get 1849 i64.add  local.get 1850 i64.add  local.get 1851 i64.add  local.get 1852 i64.add  local.get 1853 i64.add  local.get 1854 i64.add  local.get 1855 i64.add  local.get 1856 i64.add
    local.get 1857 i64.add  local.get 1858 i64.add  local.get 1859 i64.add  local.get 1860 i64.add  local.get 1861 i64.add  local.get 1862 i64.add  local.get 1863 i64.add  local.get 1864 i64.add
    local.get 1865 i64.add  local.get 1866 i64.add  local.get 1867 i64.add  local.get 1868 i64.add  local.get 1869 i64.add  local.get 1870 i64.add  local.get 1871 i64.add  local.get 1872 i64.add
    local.get 1873 i64.add  local.get 1874 i64.add  local.get 1875 i64.add  local.get 1876 i64.add  local.get 1877 i64.add  local.get 1878 i64.add  local.get 1879 i64.add  local.get 1880 i64.add
    local.get 1881 i64.add  local.get 1882 i64.add  local.get 1883 i64.add  local.get 1884 i64.add  local.get 1885 i64.add  local.get 1886 i64.add  local.get 1887 i64.add  local.get 1888 i64.add
    local.get 1889 i64.add  local.get 1890 i64.add  local.get 1891 i64.add  local.get 1892 i64.add  local.get 1893 i64.add  local.get 1894 i64.add  local.get 1895 i64.add  local.get 1896 i64.add
    local.get 1897 i64.add  local.get 1898 i64.add  local.get 1899 i64.add  local.get 1900 i64.add  local.get 1901 i64.add  local.get 1902 i64.add  local.get 1903 i64.add  local.get 1904 i64.add
    local.get 1905 i64.add  local.get 1906 i64.add  local.get 1907 i64.add  local.get 1908 i64.add  local.get 1909 i64.add  local.get 1910 i64.add  local.get 1911 i64.add  local.get 1912 i64.add
    local.get 1913 i64.add  local.get 1914 i64.add  local.get 1915 i64.add  local.get 1916 i64.add  local.get 1917 i64.add  local.get 1918 i64.add  local.get 1919 i64.add  local.get 1920 i64.add
    local.get 1921 i64.add  local.get 1922 i64.add  local.get 1923 i64.add  local.get 1924 i64.add  local.get 1925 i64.add  local.get 1926 i64.add  local.get 1927 i64.add  local.get 1928 i64.add
    local.get 1929 i64.add  local.get 1930 i64.add  local.get 1931 i64.add  local.get 1932 i64.add  local.get 1933 i64.add  local.get 1934 i64.add  local.get 1935 i64.add  local.get 1936 i64.add
    local.get 1937 i64.add  local.get 1938 i64.add  local.get 1939 i64.add  local.get 1940 i64.add  local.get 1941 i64.add  local.get 1942 i64.add  local.get 1943 i64.add  local.get 1944 i64.add
    local.get 1945 i64.add  local.get 1946 i64.add  local.get 1947 i64.add  local.get 1948 i64.add  local.get 1949 i64.add  local.get 1950 i64.add  local.get 1951 i64.add  local.get 1952 i64.add
    local.get 1953 i64.add  local.get 1954 i64.add  local.get 1955 i64.add  local.get 1956 i64.add  local.get 1957 i64.add  local.get 1958 i64.add  local.get 1959 i64.add  local.get 1960 i64.add
    local.get 1961 i64.add  local.get 1962 i64.add  local.get 1963 i64.add  local.get 1964 i64.add  local.get 1965 i64.add  local.get 1966 i64.add  local.get 1967 i64.add  local.get 1968 i64.add
    local.get 1969 i64.add  local.get 1970 i64.add  local.get 1971 i64.add  local.get 1972 i64.add  local.get 1973 i64.add  local.get 1974 i64.add  local.get 1975 i64.add  local.get 1976 i64.add
    local.get 1977 i64.add  local.get 1978 i64.add  local.get 1979 i64.add  local.get 1980 i64.add  local.get 1981 i64.add  local.get 1982 i64.add  local.get 1983 i64.add  local.get 1984 i64.add
    local.get 1985 i64.add  local.get 1986 i64.add  local.get 1987 i64.add  local.get 1988 i64.add  local.get 1989 i64.add  local.get 1990 i64.add  local.get 1991 i64.add  local.get 1992 i64.add
    local.get 1993 i64.add  local.get 1994 i64.add  local.get 1995 i64.add  local.get 1996 i64.add  local.get 1997 i64.add  local.get 1998 i64.add  local.get 1999 i64.add  local.get 2000 i64.add)
  (func (export "probe") (result i32)
    (drop (call $down (i64.const 0)))
    (i32.const 0)))
