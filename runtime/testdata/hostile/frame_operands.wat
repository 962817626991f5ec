;; Recursion with 2,000 values live on the operand stack of every frame.
;; Each value is different and is consumed only after the recursive call, so
;; wazero's compiler spills all 2,000 into the native frame (16 KB). A
;; call-depth limit of 10,000 let it take the native stack to wazero's
;; ceiling, ~100 MB grown by copying in Go code no deadline can interrupt:
;; 70-120 ms and 100 MB. Counted in stack slots, each frame weighs about
;; 2,000, and the probe traps after about 130 calls, within a few ms.
;;
;; The body pushes n + k for k = 1..2000 (local.get $n  i64.const k  i64.add),
;; recurses, then folds the 2,001 values with 2,000 i64.add.
(module
  (memory (export "memory") 1)
  (func $down (param $n i64) (result i64)
    local.get $n i64.const 1 i64.add  local.get $n i64.const 2 i64.add  local.get $n i64.const 3 i64.add  local.get $n i64.const 4 i64.add
    local.get $n i64.const 5 i64.add  local.get $n i64.const 6 i64.add  local.get $n i64.const 7 i64.add  local.get $n i64.const 8 i64.add
    local.get $n i64.const 9 i64.add  local.get $n i64.const 10 i64.add  local.get $n i64.const 11 i64.add  local.get $n i64.const 12 i64.add
    local.get $n i64.const 13 i64.add  local.get $n i64.const 14 i64.add  local.get $n i64.const 15 i64.add  local.get $n i64.const 16 i64.add
    local.get $n i64.const 17 i64.add  local.get $n i64.const 18 i64.add  local.get $n i64.const 19 i64.add  local.get $n i64.const 20 i64.add
    local.get $n i64.const 21 i64.add  local.get $n i64.const 22 i64.add  local.get $n i64.const 23 i64.add  local.get $n i64.const 24 i64.add
    local.get $n i64.const 25 i64.add  local.get $n i64.const 26 i64.add  local.get $n i64.const 27 i64.add  local.get $n i64.const 28 i64.add
    local.get $n i64.const 29 i64.add  local.get $n i64.const 30 i64.add  local.get $n i64.const 31 i64.add  local.get $n i64.const 32 i64.add
    local.get $n i64.const 33 i64.add  local.get $n i64.const 34 i64.add  local.get $n i64.const 35 i64.add  local.get $n i64.const 36 i64.add
    local.get $n i64.const 37 i64.add  local.get $n i64.const 38 i64.add  local.get $n i64.const 39 i64.add  local.get $n i64.const 40 i64.add
    local.get $n i64.const 41 i64.add  local.get $n i64.const 42 i64.add  local.get $n i64.const 43 i64.add  local.get $n i64.const 44 i64.add
    local.get $n i64.const 45 i64.add  local.get $n i64.const 46 i64.add  local.get $n i64.const 47 i64.add  local.get $n i64.const 48 i64.add
    local.get $n i64.const 49 i64.add  local.get $n i64.const 50 i64.add  local.get $n i64.const 51 i64.add  local.get $n i64.const 52 i64.add
    local.get $n i64.const 53 i64.add  local.get $n i64.const 54 i64.add  local.get $n i64.const 55 i64.add  local.get $n i64.const 56 i64.add
    local.get $n i64.const 57 i64.add  local.get $n i64.const 58 i64.add  local.get $n i64.const 59 i64.add  local.get $n i64.const 60 i64.add
    local.get $n i64.const 61 i64.add  local.get $n i64.const 62 i64.add  local.get $n i64.const 63 i64.add  local.get $n i64.const 64 i64.add
    local.get $n i64.const 65 i64.add  local.get $n i64.const 66 i64.add  local.get $n i64.const 67 i64.add  local.get $n i64.const 68 i64.add
    local.get $n i64.const 69 i64.add  local.get $n i64.const 70 i64.add  local.get $n i64.const 71 i64.add  local.get $n i64.const 72 i64.add
    local.get $n i64.const 73 i64.add  local.get $n i64.const 74 i64.add  local.get $n i64.const 75 i64.add  local.get $n i64.const 76 i64.add
    local.get $n i64.const 77 i64.add  local.get $n i64.const 78 i64.add  local.get $n i64.const 79 i64.add  local.get $n i64.const 80 i64.add
    local.get $n i64.const 81 i64.add  local.get $n i64.const 82 i64.add  local.get $n i64.const 83 i64.add  local.get $n i64.const 84 i64.add
    local.get $n i64.const 85 i64.add  local.get $n i64.const 86 i64.add  local.get $n i64.const 87 i64.add  local.get $n i64.const 88 i64.add
    local.get $n i64.const 89 i64.add  local.get $n i64.const 90 i64.add  local.get $n i64.const 91 i64.add  local.get $n i64.const 92 i64.add
    local.get $n i64.const 93 i64.add  local.get $n i64.const 94 i64.add  local.get $n i64.const 95 i64.add  local.get $n i64.const 96 i64.add
    local.get $n i64.const 97 i64.add  local.get $n i64.const 98 i64.add  local.get $n i64.const 99 i64.add  local.get $n i64.const 100 i64.add
    local.get $n i64.const 101 i64.add  local.get $n i64.const 102 i64.add  local.get $n i64.const 103 i64.add  local.get $n i64.const 104 i64.add
    local.get $n i64.const 105 i64.add  local.get $n i64.const 106 i64.add  local.get $n i64.const 107 i64.add  local.get $n i64.const 108 i64.add
    local.get $n i64.const 109 i64.add  local.get $n i64.const 110 i64.add  local.get $n i64.const 111 i64.add  local.get $n i64.const 112 i64.add
    local.get $n i64.const 113 i64.add  local.get $n i64.const 114 i64.add  local.get $n i64.const 115 i64.add  local.get $n i64.const 116 i64.add
    local.get $n i64.const 117 i64.add  local.get $n i64.const 118 i64.add  local.get $n i64.const 119 i64.add  local.get $n i64.const 120 i64.add
    local.get $n i64.const 121 i64.add  local.get $n i64.const 122 i64.add  local.get $n i64.const 123 i64.add  local.get $n i64.const 124 i64.add
    local.get $n i64.const 125 i64.add  local.get $n i64.const 126 i64.add  local.get $n i64.const 127 i64.add  local.get $n i64.const 128 i64.add
    local.get $n i64.const 129 i64.add  local.get $n i64.const 130 i64.add  local.get $n i64.const 131 i64.add  local.get $n i64.const 132 i64.add
    local.get $n i64.const 133 i64.add  local.get $n i64.const 134 i64.add  local.get $n i64.const 135 i64.add  local.get $n i64.const 136 i64.add
    local.get $n i64.const 137 i64.add  local.get $n i64.const 138 i64.add  local.get $n i64.const 139 i64.add  local.get $n i64.const 140 i64.add
    local.get $n i64.const 141 i64.add  local.get $n i64.const 142 i64.add  local.get $n i64.const 143 i64.add  local.get $n i64.const 144 i64.add
    local.get $n i64.const 145 i64.add  local.get $n i64.const 146 i64.add  local.get $n i64.const 147 i64.add  local.get $n i64.const 148 i64.add
    local.get $n i64.const 149 i64.add  local.get $n i64.const 150 i64.add  local.get $n i64.const 151 i64.add  local.get $n i64.const 152 i64.add
    local.get $n i64.const 153 i64.add  local.get $n i64.const 154 i64.add  local.get $n i64.const 155 i64.add  local.get $n i64.const 156 i64.add
    local.get $n i64.const 157 i64.add  local.get $n i64.const 158 i64.add  local.get $n i64.const 159 i64.add  local.get $n i64.const 160 i64.add
    local.get $n i64.const 161 i64.add  local.get $n i64.const 162 i64.add  local.get $n i64.const 163 i64.add  local.get $n i64.const 164 i64.add
    local.get $n i64.const 165 i64.add  local.get $n i64.const 166 i64.add  local.get $n i64.const 167 i64.add  local.get $n i64.const 168 i64.add
    local.get $n i64.const 169 i64.add  local.get $n i64.const 170 i64.add  local.get $n i64.const 171 i64.add  local.get $n i64.const 172 i64.add
    local.get $n i64.const 173 i64.add  local.get $n i64.const 174 i64.add  local.get $n i64.const 175 i64.add  local.get $n i64.const 176 i64.add
    local.get $n i64.const 177 i64.add  local.get $n i64.const 178 i64.add  local.get $n i64.const 179 i64.add  local.get $n i64.const 180 i64.add
    local.get $n i64.const 181 i64.add  local.get $n i64.const 182 i64.add  local.get $n i64.const 183 i64.add  local.get $n i64.const 184 i64.add
    local.get $n i64.const 185 i64.add  local.get $n i64.const 186 i64.add  local.get $n i64.const 187 i64.add  local.get $n i64.const 188 i64.add
    local.get $n i64.const 189 i64.add  local.get $n i64.const 190 i64.add  local.get $n i64.const 191 i64.add  local.get $n i64.const 192 i64.add
    local.get $n i64.const 193 i64.add  local.get $n i64.const 194 i64.add  local.get $n i64.const 195 i64.add  local.get $n i64.const 196 i64.add
    local.get $n i64.const 197 i64.add  local.get $n i64.const 198 i64.add  local.get $n i64.const 199 i64.add  local.get $n i64.const 200 i64.add
    local.get $n i64.const 201 i64.add  local.get $n i64.const 202 i64.add  local.get $n i64.const 203 i64.add  local.get $n i64.const 204 i64.add
    local.get $n i64.const 205 i64.add  local.get $n i64.const 206 i64.add  local.get $n i64.const 207 i64.add  local.get $n i64.const 208 i64.add
    local.get $n i64.const 209 i64.add  local.get $n i64.const 210 i64.add  local.get $n i64.const 211 i64.add  local.get $n i64.const 212 i64.add
    local.get $n i64.const 213 i64.add  local.get $n i64.const 214 i64.add  local.get $n i64.const 215 i64.add  local.get $n i64.const 216 i64.add
    local.get $n i64.const 217 i64.add  local.get $n i64.const 218 i64.add  local.get $n i64.const 219 i64.add  local.get $n i64.const 220 i64.add
    local.get $n i64.const 221 i64.add  local.get $n i64.const 222 i64.add  local.get $n i64.const 223 i64.add  local.get $n i64.const 224 i64.add
    local.get $n i64.const 225 i64.add  local.get $n i64.const 226 i64.add  local.get $n i64.const 227 i64.add  local.get $n i64.const 228 i64.add
    local.get $n i64.const 229 i64.add  local.get $n i64.const 230 i64.add  local.get $n i64.const 231 i64.add  local.get $n i64.const 232 i64.add
    local.get $n i64.const 233 i64.add  local.get $n i64.const 234 i64.add  local.get $n i64.const 235 i64.add  local.get $n i64.const 236 i64.add
    local.get $n i64.const 237 i64.add  local.get $n i64.const 238 i64.add  local.get $n i64.const 239 i64.add  local.get $n i64.const 240 i64.add
    local.get $n i64.const 241 i64.add  local.get $n i64.const 242 i64.add  local.get $n i64.const 243 i64.add  local.get $n i64.const 244 i64.add
    local.get $n i64.const 245 i64.add  local.get $n i64.const 246 i64.add  local.get $n i64.const 247 i64.add  local.get $n i64.const 248 i64.add
    local.get $n i64.const 249 i64.add  local.get $n i64.const 250 i64.add  local.get $n i64.const 251 i64.add  local.get $n i64.const 252 i64.add
    local.get $n i64.const 253 i64.add  local.get $n i64.const 254 i64.add  local.get $n i64.const 255 i64.add  local.get $n i64.const 256 i64.add
    local.get $n i64.const 257 i64.add  local.get $n i64.const 258 i64.add  local.get $n i64.const 259 i64.add  local.get $n i64.const 260 i64.add
    local.get $n i64.const 261 i64.add  local.get $n i64.const 262 i64.add  local.get $n i64.const 263 i64.add  local.get $n i64.const 264 i64.add
    local.get $n i64.const 265 i64.add  local.get $n i64.const 266 i64.add  local.get $n i64.const 267 i64.add  local.get $n i64.const 268 i64.add
    local.get $n i64.const 269 i64.add  local.get $n i64.const 270 i64.add  local.get $n i64.const 271 i64.add  local.get $n i64.const 272 i64.add
    local.get $n i64.const 273 i64.add  local.get $n i64.const 274 i64.add  local.get $n i64.const 275 i64.add  local.get $n i64.const 276 i64.add
    local.get $n i64.const 277 i64.add  local.get $n i64.const 278 i64.add  local.get $n i64.const 279 i64.add  local.get $n i64.const 280 i64.add
    local.get $n i64.const 281 i64.add  local.get $n i64.const 282 i64.add  local.get $n i64.const 283 i64.add  local.get $n i64.const 284 i64.add
    local.get $n i64.const 285 i64.add  local.get $n i64.const 286 i64.add  local.get $n i64.const 287 i64.add  local.get $n i64.const 288 i64.add
    local.get $n i64.const 289 i64.add  local.get $n i64.const 290 i64.add  local.get $n i64.const 291 i64.add  local.get $n i64.const 292 i64.add
    local.get $n i64.const 293 i64.add  local.get $n i64.const 294 i64.add  local.get $n i64.const 295 i64.add  local.get $n i64.const 296 i64.add
    local.get $n i64.const 297 i64.add  local.get $n i64.const 298 i64.add  local.get $n i64.const 299 i64.add  local.get $n i64.const 300 i64.add
    local.get $n i64.const 301 i64.add  local.get $n i64.const 302 i64.add  local.get $n i64.const 303 i64.add  local.get $n i64.const 304 i64.add
    local.get $n i64.const 305 i64.add  local.get $n i64.const 306 i64.add  local.get $n i64.const 307 i64.add  local.get $n i64.const 308 i64.add
    local.get $n i64.const 309 i64.add  local.get $n i64.const 310 i64.add  local.get $n i64.const 311 i64.add  local.get $n i64.const 312 i64.add
    local.get $n i64.const 313 i64.add  local.get $n i64.const 314 i64.add  local.get $n i64.const 315 i64.add  local.get $n i64.const 316 i64.add
    local.get $n i64.const 317 i64.add  local.get $n i64.const 318 i64.add  local.get $n i64.const 319 i64.add  local.get $n i64.const 320 i64.add
    local.get $n i64.const 321 i64.add  local.get $n i64.const 322 i64.add  local.get $n i64.const 323 i64.add  local.get $n i64.const 324 i64.add
    local.get $n i64.const 325 i64.add  local.get $n i64.const 326 i64.add  local.get $n i64.const 327 i64.add  local.get $n i64.const 328 i64.add
    local.get $n i64.const 329 i64.add  local.get $n i64.const 330 i64.add  local.get $n i64.const 331 i64.add  local.get $n i64.const 332 i64.add
    local.get $n i64.const 333 i64.add  local.get $n i64.const 334 i64.add  local.get $n i64.const 335 i64.add  local.get $n i64.const 336 i64.add
    local.get $n i64.const 337 i64.add  local.get $n i64.const 338 i64.add  local.get $n i64.const 339 i64.add  local.get $n i64.const 340 i64.add
    local.get $n i64.const 341 i64.add  local.get $n i64.const 342 i64.add  local.get $n i64.const 343 i64.add  local.get $n i64.const 344 i64.add
    local.get $n i64.const 345 i64.add  local.get $n i64.const 346 i64.add  local.get $n i64.const 347 i64.add  local.get $n i64.const 348 i64.add
    local.get $n i64.const 349 i64.add  local.get $n i64.const 350 i64.add  local.get $n i64.const 351 i64.add  local.get $n i64.const 352 i64.add
    local.get $n i64.const 353 i64.add  local.get $n i64.const 354 i64.add  local.get $n i64.const 355 i64.add  local.get $n i64.const 356 i64.add
    local.get $n i64.const 357 i64.add  local.get $n i64.const 358 i64.add  local.get $n i64.const 359 i64.add  local.get $n i64.const 360 i64.add
    local.get $n i64.const 361 i64.add  local.get $n i64.const 362 i64.add  local.get $n i64.const 363 i64.add  local.get $n i64.const 364 i64.add
    local.get $n i64.const 365 i64.add  local.get $n i64.const 366 i64.add  local.get $n i64.const 367 i64.add  local.get $n i64.const 368 i64.add
    local.get $n i64.const 369 i64.add  local.get $n i64.const 370 i64.add  local.get $n i64.const 371 i64.add  local.get $n i64.const 372 i64.add
    local.get $n i64.const 373 i64.add  local.get $n i64.const 374 i64.add  local.get $n i64.const 375 i64.add  local.get $n i64.const 376 i64.add
    local.get $n i64.const 377 i64.add  local.get $n i64.const 378 i64.add  local.get $n i64.const 379 i64.add  local.get $n i64.const 380 i64.add
    local.get $n i64.const 381 i64.add  local.get $n i64.const 382 i64.add  local.get $n i64.const 383 i64.add  local.get $n i64.const 384 i64.add
    local.get $n i64.const 385 i64.add  local.get $n i64.const 386 i64.add  local.get $n i64.const 387 i64.add  local.get $n i64.const 388 i64.add
    local.get $n i64.const 389 i64.add  local.get $n i64.const 390 i64.add  local.get $n i64.const 391 i64.add  local.get $n i64.const 392 i64.add
    local.get $n i64.const 393 i64.add  local.get $n i64.const 394 i64.add  local.get $n i64.const 395 i64.add  local.get $n i64.const 396 i64.add
    local.get $n i64.const 397 i64.add  local.get $n i64.const 398 i64.add  local.get $n i64.const 399 i64.add  local.get $n i64.const 400 i64.add
    local.get $n i64.const 401 i64.add  local.get $n i64.const 402 i64.add  local.get $n i64.const 403 i64.add  local.get $n i64.const 404 i64.add
    local.get $n i64.const 405 i64.add  local.get $n i64.const 406 i64.add  local.get $n i64.const 407 i64.add  local.get $n i64.const 408 i64.add
    local.get $n i64.const 409 i64.add  local.get $n i64.const 410 i64.add  local.get $n i64.const 411 i64.add  local.get $n i64.const 412 i64.add
    local.get $n i64.const 413 i64.add  local.get $n i64.const 414 i64.add  local.get $n i64.const 415 i64.add  local.get $n i64.const 416 i64.add
    local.get $n i64.const 417 i64.add  local.get $n i64.const 418 i64.add  local.get $n i64.const 419 i64.add  local.get $n i64.const 420 i64.add
    local.get $n i64.const 421 i64.add  local.get $n i64.const 422 i64.add  local.get $n i64.const 423 i64.add  local.get $n i64.const 424 i64.add
    local.get $n i64.const 425 i64.add  local.get $n i64.const 426 i64.add  local.get $n i64.const 427 i64.add  local.get $n i64.const 428 i64.add
    local.get $n i64.const 429 i64.add  local.get $n i64.const 430 i64.add  local.get $n i64.const 431 i64.add  local.get $n i64.const 432 i64.add
    local.get $n i64.const 433 i64.add  local.get $n i64.const 434 i64.add  local.get $n i64.const 435 i64.add  local.get $n i64.const 436 i64.add
    local.get $n i64.const 437 i64.add  local.get $n i64.const 438 i64.add  local.get $n i64.const 439 i64.add  local.get $n i64.const 440 i64.add
    local.get $n i64.const 441 i64.add  local.get $n i64.const 442 i64.add  local.get $n i64.const 443 i64.add  local.get $n i64.const 444 i64.add
    local.get $n i64.const 445 i64.add  local.get $n i64.const 446 i64.add  local.get $n i64.const 447 i64.add  local.get $n i64.const 448 i64.add
    local.get $n i64.const 449 i64.add  local.get $n i64.const 450 i64.add  local.get $n i64.const 451 i64.add  local.get $n i64.const 452 i64.add
    local.get $n i64.const 453 i64.add  local.get $n i64.const 454 i64.add  local.get $n i64.const 455 i64.add  local.get $n i64.const 456 i64.add
    local.get $n i64.const 457 i64.add  local.get $n i64.const 458 i64.add  local.get $n i64.const 459 i64.add  local.get $n i64.const 460 i64.add
    local.get $n i64.const 461 i64.add  local.get $n i64.const 462 i64.add  local.get $n i64.const 463 i64.add  local.get $n i64.const 464 i64.add
    local.get $n i64.const 465 i64.add  local.get $n i64.const 466 i64.add  local.get $n i64.const 467 i64.add  local.get $n i64.const 468 i64.add
    local.get $n i64.const 469 i64.add  local.get $n i64.const 470 i64.add  local.get $n i64.const 471 i64.add  local.get $n i64.const 472 i64.add
    local.get $n i64.const 473 i64.add  local.get $n i64.const 474 i64.add  local.get $n i64.const 475 i64.add  local.get $n i64.const 476 i64.add
    local.get $n i64.const 477 i64.add  local.get $n i64.const 478 i64.add  local.get $n i64.const 479 i64.add  local.get $n i64.const 480 i64.add
    local.get $n i64.const 481 i64.add  local.get $n i64.const 482 i64.add  local.get $n i64.const 483 i64.add  local.get $n i64.const 484 i64.add
    local.get $n i64.const 485 i64.add  local.get $n i64.const 486 i64.add  local.get $n i64.const 487 i64.add  local.get $n i64.const 488 i64.add
    local.get $n i64.const 489 i64.add  local.get $n i64.const 490 i64.add  local.get $n i64.const 491 i64.add  local.get $n i64.const 492 i64.add
    local.get $n i64.const 493 i64.add  local.get $n i64.const 494 i64.add  local.get $n i64.const 495 i64.add  local.get $n i64.const 496 i64.add
    local.get $n i64.const 497 i64.add  local.get $n i64.const 498 i64.add  local.get $n i64.const 499 i64.add  local.get $n i64.const 500 i64.add
    local.get $n i64.const 501 i64.add  local.get $n i64.const 502 i64.add  local.get $n i64.const 503 i64.add  local.get $n i64.const 504 i64.add
    local.get $n i64.const 505 i64.add  local.get $n i64.const 506 i64.add  local.get $n i64.const 507 i64.add  local.get $n i64.const 508 i64.add
    local.get $n i64.const 509 i64.add  local.get $n i64.const 510 i64.add  local.get $n i64.const 511 i64.add  local.get $n i64.const 512 i64.add
    local.get $n i64.const 513 i64.add  local.get $n i64.const 514 i64.add  local.get $n i64.const 515 i64.add  local.get $n i64.const 516 i64.add
    local.get $n i64.const 517 i64.add  local.get $n i64.const 518 i64.add  local.get $n i64.const 519 i64.add  local.get $n i64.const 520 i64.add
    local.get $n i64.const 521 i64.add  local.get $n i64.const 522 i64.add  local.get $n i64.const 523 i64.add  local.get $n i64.const 524 i64.add
    local.get $n i64.const 525 i64.add  local.get $n i64.const 526 i64.add  local.get $n i64.const 527 i64.add  local.get $n i64.const 528 i64.add
    local.get $n i64.const 529 i64.add  local.get $n i64.const 530 i64.add  local.get $n i64.const 531 i64.add  local.get $n i64.const 532 i64.add
    local.get $n i64.const 533 i64.add  local.get $n i64.const 534 i64.add  local.get $n i64.const 535 i64.add  local.get $n i64.const 536 i64.add
    local.get $n i64.const 537 i64.add  local.get $n i64.const 538 i64.add  local.get $n i64.const 539 i64.add  local.get $n i64.const 540 i64.add
    local.get $n i64.const 541 i64.add  local.get $n i64.const 542 i64.add  local.get $n i64.const 543 i64.add  local.get $n i64.const 544 i64.add
    local.get $n i64.const 545 i64.add  local.get $n i64.const 546 i64.add  local.get $n i64.const 547 i64.add  local.get $n i64.const 548 i64.add
    local.get $n i64.const 549 i64.add  local.get $n i64.const 550 i64.add  local.get $n i64.const 551 i64.add  local.get $n i64.const 552 i64.add
    local.get $n i64.const 553 i64.add  local.get $n i64.const 554 i64.add  local.get $n i64.const 555 i64.add  local.get $n i64.const 556 i64.add
    local.get $n i64.const 557 i64.add  local.get $n i64.const 558 i64.add  local.get $n i64.const 559 i64.add  local.get $n i64.const 560 i64.add
    local.get $n i64.const 561 i64.add  local.get $n i64.const 562 i64.add  local.get $n i64.const 563 i64.add  local.get $n i64.const 564 i64.add
    local.get $n i64.const 565 i64.add  local.get $n i64.const 566 i64.add  local.get $n i64.const 567 i64.add  local.get $n i64.const 568 i64.add
    local.get $n i64.const 569 i64.add  local.get $n i64.const 570 i64.add  local.get $n i64.const 571 i64.add  local.get $n i64.const 572 i64.add
    local.get $n i64.const 573 i64.add  local.get $n i64.const 574 i64.add  local.get $n i64.const 575 i64.add  local.get $n i64.const 576 i64.add
    local.get $n i64.const 577 i64.add  local.get $n i64.const 578 i64.add  local.get $n i64.const 579 i64.add  local.get $n i64.const 580 i64.add
    local.get $n i64.const 581 i64.add  local.get $n i64.const 582 i64.add  local.get $n i64.const 583 i64.add  local.get $n i64.const 584 i64.add
    local.get $n i64.const 585 i64.add  local.get $n i64.const 586 i64.add  local.get $n i64.const 587 i64.add  local.get $n i64.const 588 i64.add
    local.get $n i64.const 589 i64.add  local.get $n i64.const 590 i64.add  local.get $n i64.const 591 i64.add  local.get $n i64.const 592 i64.add
    local.get $n i64.const 593 i64.add  local.get $n i64.const 594 i64.add  local.get $n i64.const 595 i64.add  local.get $n i64.const 596 i64.add
    local.get $n i64.const 597 i64.add  local.get $n i64.const 598 i64.add  local.get $n i64.const 599 i64.add  local.get $n i64.const 600 i64.add
    local.get $n i64.const 601 i64.add  local.get $n i64.const 602 i64.add  local.get $n i64.const 603 i64.add  local.get $n i64.const 604 i64.add
    local.get $n i64.const 605 i64.add  local.get $n i64.const 606 i64.add  local.get $n i64.const 607 i64.add  local.get $n i64.const 608 i64.add
    local.get $n i64.const 609 i64.add  local.get $n i64.const 610 i64.add  local.get $n i64.const 611 i64.add  local.get $n i64.const 612 i64.add
    local.get $n i64.const 613 i64.add  local.get $n i64.const 614 i64.add  local.get $n i64.const 615 i64.add  local.get $n i64.const 616 i64.add
    local.get $n i64.const 617 i64.add  local.get $n i64.const 618 i64.add  local.get $n i64.const 619 i64.add  local.get $n i64.const 620 i64.add
    local.get $n i64.const 621 i64.add  local.get $n i64.const 622 i64.add  local.get $n i64.const 623 i64.add  local.get $n i64.const 624 i64.add
    local.get $n i64.const 625 i64.add  local.get $n i64.const 626 i64.add  local.get $n i64.const 627 i64.add  local.get $n i64.const 628 i64.add
    local.get $n i64.const 629 i64.add  local.get $n i64.const 630 i64.add  local.get $n i64.const 631 i64.add  local.get $n i64.const 632 i64.add
    local.get $n i64.const 633 i64.add  local.get $n i64.const 634 i64.add  local.get $n i64.const 635 i64.add  local.get $n i64.const 636 i64.add
    local.get $n i64.const 637 i64.add  local.get $n i64.const 638 i64.add  local.get $n i64.const 639 i64.add  local.get $n i64.const 640 i64.add
    local.get $n i64.const 641 i64.add  local.get $n i64.const 642 i64.add  local.get $n i64.const 643 i64.add  local.get $n i64.const 644 i64.add
    local.get $n i64.const 645 i64.add  local.get $n i64.const 646 i64.add  local.get $n i64.const 647 i64.add  local.get $n i64.const 648 i64.add
    local.get $n i64.const 649 i64.add  local.get $n i64.const 650 i64.add  local.get $n i64.const 651 i64.add  local.get $n i64.const 652 i64.add
    local.get $n i64.const 653 i64.add  local.get $n i64.const 654 i64.add  local.get $n i64.const 655 i64.add  local.get $n i64.const 656 i64.add
    local.get $n i64.const 657 i64.add  local.get $n i64.const 658 i64.add  local.get $n i64.const 659 i64.add  local.get $n i64.const 660 i64.add
    local.get $n i64.const 661 i64.add  local.get $n i64.const 662 i64.add  local.get $n i64.const 663 i64.add  local.get $n i64.const 664 i64.add
    local.get $n i64.const 665 i64.add  local.get $n i64.const 666 i64.add  local.get $n i64.const 667 i64.add  local.get $n i64.const 668 i64.add
    local.get $n i64.const 669 i64.add  local.get $n i64.const 670 i64.add  local.get $n i64.const 671 i64.add  local.get $n i64.const 672 i64.add
    local.get $n i64.const 673 i64.add  local.get $n i64.const 674 i64.add  local.get $n i64.const 675 i64.add  local.get $n i64.const 676 i64.add
    local.get $n i64.const 677 i64.add  local.get $n i64.const 678 i64.add  local.get $n i64.const 679 i64.add  local.get $n i64.const 680 i64.add
    local.get $n i64.const 681 i64.add  local.get $n i64.const 682 i64.add  local.get $n i64.const 683 i64.add  local.get $n i64.const 684 i64.add
    local.get $n i64.const 685 i64.add  local.get $n i64.const 686 i64.add  local.get $n i64.const 687 i64.add  local.get $n i64.const 688 i64.add
    local.get $n i64.const 689 i64.add  local.get $n i64.const 690 i64.add  local.get $n i64.const 691 i64.add  local.get $n i64.const 692 i64.add
    local.get $n i64.const 693 i64.add  local.get $n i64.const 694 i64.add  local.get $n i64.const 695 i64.add  local.get $n i64.const 696 i64.add
    local.get $n i64.const 697 i64.add  local.get $n i64.const 698 i64.add  local.get $n i64.const 699 i64.add  local.get $n i64.const 700 i64.add
    local.get $n i64.const 701 i64.add  local.get $n i64.const 702 i64.add  local.get $n i64.const 703 i64.add  local.get $n i64.const 704 i64.add
    local.get $n i64.const 705 i64.add  local.get $n i64.const 706 i64.add  local.get $n i64.const 707 i64.add  local.get $n i64.const 708 i64.add
    local.get $n i64.const 709 i64.add  local.get $n i64.const 710 i64.add  local.get $n i64.const 711 i64.add  local.get $n i64.const 712 i64.add
    local.get $n i64.const 713 i64.add  local.get $n i64.const 714 i64.add  local.get $n i64.const 715 i64.add  local.get $n i64.const 716 i64.add
    local.get $n i64.const 717 i64.add  local.get $n i64.const 718 i64.add  local.get $n i64.const 719 i64.add  local.get $n i64.const 720 i64.add
    local.get $n i64.const 721 i64.add  local.get $n i64.const 722 i64.add  local.get $n i64.const 723 i64.add  local.get $n i64.const 724 i64.add
    local.get $n i64.const 725 i64.add  local.get $n i64.const 726 i64.add  local.get $n i64.const 727 i64.add  local.get $n i64.const 728 i64.add
    local.get $n i64.const 729 i64.add  local.get $n i64.const 730 i64.add  local.get $n i64.const 731 i64.add  local.get $n i64.const 732 i64.add
    local.get $n i64.const 733 i64.add  local.get $n i64.const 734 i64.add  local.get $n i64.const 735 i64.add  local.get $n i64.const 736 i64.add
    local.get $n i64.const 737 i64.add  local.get $n i64.const 738 i64.add  local.get $n i64.const 739 i64.add  local.get $n i64.const 740 i64.add
    local.get $n i64.const 741 i64.add  local.get $n i64.const 742 i64.add  local.get $n i64.const 743 i64.add  local.get $n i64.const 744 i64.add
    local.get $n i64.const 745 i64.add  local.get $n i64.const 746 i64.add  local.get $n i64.const 747 i64.add  local.get $n i64.const 748 i64.add
    local.get $n i64.const 749 i64.add  local.get $n i64.const 750 i64.add  local.get $n i64.const 751 i64.add  local.get $n i64.const 752 i64.add
    local.get $n i64.const 753 i64.add  local.get $n i64.const 754 i64.add  local.get $n i64.const 755 i64.add  local.get $n i64.const 756 i64.add
    local.get $n i64.const 757 i64.add  local.get $n i64.const 758 i64.add  local.get $n i64.const 759 i64.add  local.get $n i64.const 760 i64.add
    local.get $n i64.const 761 i64.add  local.get $n i64.const 762 i64.add  local.get $n i64.const 763 i64.add  local.get $n i64.const 764 i64.add
    local.get $n i64.const 765 i64.add  local.get $n i64.const 766 i64.add  local.get $n i64.const 767 i64.add  local.get $n i64.const 768 i64.add
    local.get $n i64.const 769 i64.add  local.get $n i64.const 770 i64.add  local.get $n i64.const 771 i64.add  local.get $n i64.const 772 i64.add
    local.get $n i64.const 773 i64.add  local.get $n i64.const 774 i64.add  local.get $n i64.const 775 i64.add  local.get $n i64.const 776 i64.add
    local.get $n i64.const 777 i64.add  local.get $n i64.const 778 i64.add  local.get $n i64.const 779 i64.add  local.get $n i64.const 780 i64.add
    local.get $n i64.const 781 i64.add  local.get $n i64.const 782 i64.add  local.get $n i64.const 783 i64.add  local.get $n i64.const 784 i64.add
    local.get $n i64.const 785 i64.add  local.get $n i64.const 786 i64.add  local.get $n i64.const 787 i64.add  local.get $n i64.const 788 i64.add
    local.get $n i64.const 789 i64.add  local.get $n i64.const 790 i64.add  local.get $n i64.const 791 i64.add  local.get $n i64.const 792 i64.add
    local.get $n i64.const 793 i64.add  local.get $n i64.const 794 i64.add  local.get $n i64.const 795 i64.add  local.get $n i64.const 796 i64.add
    local.get $n i64.const 797 i64.add  local.get $n i64.const 798 i64.add  local.get $n i64.const 799 i64.add  local.get $n i64.const 800 i64.add
    local.get $n i64.const 801 i64.add  local.get $n i64.const 802 i64.add  local.get $n i64.const 803 i64.add  local.get $n i64.const 804 i64.add
    local.get $n i64.const 805 i64.add  local.get $n i64.const 806 i64.add  local.get $n i64.const 807 i64.add  local.get $n i64.const 808 i64.add
    local.get $n i64.const 809 i64.add  local.get $n i64.const 810 i64.add  local.get $n i64.const 811 i64.add  local.get $n i64.const 812 i64.add
    local.get $n i64.const 813 i64.add  local.get $n i64.const 814 i64.add  local.get $n i64.const 815 i64.add  local.get $n i64.const 816 i64.add
    local.get $n i64.const 817 i64.add  local.get $n i64.const 818 i64.add  local.get $n i64.const 819 i64.add  local.get $n i64.const 820 i64.add
    local.get $n i64.const 821 i64.add  local.get $n i64.const 822 i64.add  local.get $n i64.const 823 i64.add  local.get $n i64.const 824 i64.add
    local.get $n i64.const 825 i64.add  local.get $n i64.const 826 i64.add  local.get $n i64.const 827 i64.add  local.get $n i64.const 828 i64.add
    local.get $n i64.const 829 i64.add  local.get $n i64.const 830 i64.add  local.get $n i64.const 831 i64.add  local.get $n i64.const 832 i64.add
    local.get $n i64.const 833 i64.add  local.get $n i64.const 834 i64.add  local.get $n i64.const 835 i64.add  local.get $n i64.const 836 i64.add
    local.get $n i64.const 837 i64.add  local.get $n i64.const 838 i64.add  local.get $n i64.const 839 i64.add  local.get $n i64.const 840 i64.add
    local.get $n i64.const 841 i64.add  local.get $n i64.const 842 i64.add  local.get $n i64.const 843 i64.add  local.get $n i64.const 844 i64.add
    local.get $n i64.const 845 i64.add  local.get $n i64.const 846 i64.add  local.get $n i64.const 847 i64.add  local.get $n i64.const 848 i64.add
    local.get $n i64.const 849 i64.add  local.get $n i64.const 850 i64.add  local.get $n i64.const 851 i64.add  local.get $n i64.const 852 i64.add
    local.get $n i64.const 853 i64.add  local.get $n i64.const 854 i64.add  local.get $n i64.const 855 i64.add  local.get $n i64.const 856 i64.add
    local.get $n i64.const 857 i64.add  local.get $n i64.const 858 i64.add  local.get $n i64.const 859 i64.add  local.get $n i64.const 860 i64.add
    local.get $n i64.const 861 i64.add  local.get $n i64.const 862 i64.add  local.get $n i64.const 863 i64.add  local.get $n i64.const 864 i64.add
    local.get $n i64.const 865 i64.add  local.get $n i64.const 866 i64.add  local.get $n i64.const 867 i64.add  local.get $n i64.const 868 i64.add
    local.get $n i64.const 869 i64.add  local.get $n i64.const 870 i64.add  local.get $n i64.const 871 i64.add  local.get $n i64.const 872 i64.add
    local.get $n i64.const 873 i64.add  local.get $n i64.const 874 i64.add  local.get $n i64.const 875 i64.add  local.get $n i64.const 876 i64.add
    local.get $n i64.const 877 i64.add  local.get $n i64.const 878 i64.add  local.get $n i64.const 879 i64.add  local.get $n i64.const 880 i64.add
    local.get $n i64.const 881 i64.add  local.get $n i64.const 882 i64.add  local.get $n i64.const 883 i64.add  local.get $n i64.const 884 i64.add
    local.get $n i64.const 885 i64.add  local.get $n i64.const 886 i64.add  local.get $n i64.const 887 i64.add  local.get $n i64.const 888 i64.add
    local.get $n i64.const 889 i64.add  local.get $n i64.const 890 i64.add  local.get $n i64.const 891 i64.add  local.get $n i64.const 892 i64.add
    local.get $n i64.const 893 i64.add  local.get $n i64.const 894 i64.add  local.get $n i64.const 895 i64.add  local.get $n i64.const 896 i64.add
    local.get $n i64.const 897 i64.add  local.get $n i64.const 898 i64.add  local.get $n i64.const 899 i64.add  local.get $n i64.const 900 i64.add
    local.get $n i64.const 901 i64.add  local.get $n i64.const 902 i64.add  local.get $n i64.const 903 i64.add  local.get $n i64.const 904 i64.add
    local.get $n i64.const 905 i64.add  local.get $n i64.const 906 i64.add  local.get $n i64.const 907 i64.add  local.get $n i64.const 908 i64.add
    local.get $n i64.const 909 i64.add  local.get $n i64.const 910 i64.add  local.get $n i64.const 911 i64.add  local.get $n i64.const 912 i64.add
    local.get $n i64.const 913 i64.add  local.get $n i64.const 914 i64.add  local.get $n i64.const 915 i64.add  local.get $n i64.const 916 i64.add
    local.get $n i64.const 917 i64.add  local.get $n i64.const 918 i64.add  local.get $n i64.const 919 i64.add  local.get $n i64.const 920 i64.add
    local.get $n i64.const 921 i64.add  local.get $n i64.const 922 i64.add  local.get $n i64.const 923 i64.add  local.get $n i64.const 924 i64.add
    local.get $n i64.const 925 i64.add  local.get $n i64.const 926 i64.add  local.get $n i64.const 927 i64.add  local.get $n i64.const 928 i64.add
    local.get $n i64.const 929 i64.add  local.get $n i64.const 930 i64.add  local.get $n i64.const 931 i64.add  local.get $n i64.const 932 i64.add
    local.get $n i64.const 933 i64.add  local.get $n i64.const 934 i64.add  local.get $n i64.const 935 i64.add  local.get $n i64.const 936 i64.add
    local.get $n i64.const 937 i64.add  local.get $n i64.const 938 i64.add  local.get $n i64.const 939 i64.add  local.get $n i64.const 940 i64.add
    local.get $n i64.const 941 i64.add  local.get $n i64.const 942 i64.add  local.get $n i64.const 943 i64.add  local.get $n i64.const 944 i64.add
    local.get $n i64.const 945 i64.add  local.get $n i64.const 946 i64.add  local.get $n i64.const 947 i64.add  local.get $n i64.const 948 i64.add
    local.get $n i64.const 949 i64.add  local.get $n i64.const 950 i64.add  local.get $n i64.const 951 i64.add  local.get $n i64.const 952 i64.add
    local.get $n i64.const 953 i64.add  local.get $n i64.const 954 i64.add  local.get $n i64.const 955 i64.add  local.get $n i64.const 956 i64.add
    local.get $n i64.const 957 i64.add  local.get $n i64.const 958 i64.add  local.get $n i64.const 959 i64.add  local.get $n i64.const 960 i64.add
    local.get $n i64.const 961 i64.add  local.get $n i64.const 962 i64.add  local.get $n i64.const 963 i64.add  local.get $n i64.const 964 i64.add
    local.get $n i64.const 965 i64.add  local.get $n i64.const 966 i64.add  local.get $n i64.const 967 i64.add  local.get $n i64.const 968 i64.add
    local.get $n i64.const 969 i64.add  local.get $n i64.const 970 i64.add  local.get $n i64.const 971 i64.add  local.get $n i64.const 972 i64.add
    local.get $n i64.const 973 i64.add  local.get $n i64.const 974 i64.add  local.get $n i64.const 975 i64.add  local.get $n i64.const 976 i64.add
    local.get $n i64.const 977 i64.add  local.get $n i64.const 978 i64.add  local.get $n i64.const 979 i64.add  local.get $n i64.const 980 i64.add
    local.get $n i64.const 981 i64.add  local.get $n i64.const 982 i64.add  local.get $n i64.const 983 i64.add  local.get $n i64.const 984 i64.add
    local.get $n i64.const 985 i64.add  local.get $n i64.const 986 i64.add  local.get $n i64.const 987 i64.add  local.get $n i64.const 988 i64.add
    local.get $n i64.const 989 i64.add  local.get $n i64.const 990 i64.add  local.get $n i64.const 991 i64.add  local.get $n i64.const 992 i64.add
    local.get $n i64.const 993 i64.add  local.get $n i64.const 994 i64.add  local.get $n i64.const 995 i64.add  local.get $n i64.const 996 i64.add
    local.get $n i64.const 997 i64.add  local.get $n i64.const 998 i64.add  local.get $n i64.const 999 i64.add  local.get $n i64.const 1000 i64.add
    local.get $n i64.const 1001 i64.add  local.get $n i64.const 1002 i64.add  local.get $n i64.const 1003 i64.add  local.get $n i64.const 1004 i64.add
    local.get $n i64.const 1005 i64.add  local.get $n i64.const 1006 i64.add  local.get $n i64.const 1007 i64.add  local.get $n i64.const 1008 i64.add
    local.get $n i64.const 1009 i64.add  local.get $n i64.const 1010 i64.add  local.get $n i64.const 1011 i64.add  local.get $n i64.const 1012 i64.add
    local.get $n i64.const 1013 i64.add  local.get $n i64.const 1014 i64.add  local.get $n i64.const 1015 i64.add  local.get $n i64.const 1016 i64.add
    local.get $n i64.const 1017 i64.add  local.get $n i64.const 1018 i64.add  local.get $n i64.const 1019 i64.add  local.get $n i64.const 1020 i64.add
    local.get $n i64.const 1021 i64.add  local.get $n i64.const 1022 i64.add  local.get $n i64.const 1023 i64.add  local.get $n i64.const 1024 i64.add
    local.get $n i64.const 1025 i64.add  local.get $n i64.const 1026 i64.add  local.get $n i64.const 1027 i64.add  local.get $n i64.const 1028 i64.add
    local.get $n i64.const 1029 i64.add  local.get $n i64.const 1030 i64.add  local.get $n i64.const 1031 i64.add  local.get $n i64.const 1032 i64.add
    local.get $n i64.const 1033 i64.add  local.get $n i64.const 1034 i64.add  local.get $n i64.const 1035 i64.add  local.get $n i64.const 1036 i64.add
    local.get $n i64.const 1037 i64.add  local.get $n i64.const 1038 i64.add  local.get $n i64.const 1039 i64.add  local.get $n i64.const 1040 i64.add
    local.get $n i64.const 1041 i64.add  local.get $n i64.const 1042 i64.add  local.get $n i64.const 1043 i64.add  local.get $n i64.const 1044 i64.add
    local.get $n i64.const 1045 i64.add  local.get $n i64.const 1046 i64.add  local.get $n i64.const 1047 i64.add  local.get $n i64.const 1048 i64.add
    local.get $n i64.const 1049 i64.add  local.get $n i64.const 1050 i64.add  local.get $n i64.const 1051 i64.add  local.get $n i64.const 1052 i64.add
    local.get $n i64.const 1053 i64.add  local.get $n i64.const 1054 i64.add  local.get $n i64.const 1055 i64.add  local.get $n i64.const 1056 i64.add
    local.get $n i64.const 1057 i64.add  local.get $n i64.const 1058 i64.add  local.get $n i64.const 1059 i64.add  local.get $n i64.const 1060 i64.add
    local.get $n i64.const 1061 i64.add  local.get $n i64.const 1062 i64.add  local.get $n i64.const 1063 i64.add  local.get $n i64.const 1064 i64.add
    local.get $n i64.const 1065 i64.add  local.get $n i64.const 1066 i64.add  local.get $n i64.const 1067 i64.add  local.get $n i64.const 1068 i64.add
    local.get $n i64.const 1069 i64.add  local.get $n i64.const 1070 i64.add  local.get $n i64.const 1071 i64.add  local.get $n i64.const 1072 i64.add
    local.get $n i64.const 1073 i64.add  local.get $n i64.const 1074 i64.add  local.get $n i64.const 1075 i64.add  local.get $n i64.const 1076 i64.add
    local.get $n i64.const 1077 i64.add  local.get $n i64.const 1078 i64.add  local.get $n i64.const 1079 i64.add  local.get $n i64.const 1080 i64.add
    local.get $n i64.const 1081 i64.add  local.get $n i64.const 1082 i64.add  local.get $n i64.const 1083 i64.add  local.get $n i64.const 1084 i64.add
    local.get $n i64.const 1085 i64.add  local.get $n i64.const 1086 i64.add  local.get $n i64.const 1087 i64.add  local.get $n i64.const 1088 i64.add
    local.get $n i64.const 1089 i64.add  local.get $n i64.const 1090 i64.add  local.get $n i64.const 1091 i64.add  local.get $n i64.const 1092 i64.add
    local.get $n i64.const 1093 i64.add  local.get $n i64.const 1094 i64.add  local.get $n i64.const 1095 i64.add  local.get $n i64.const 1096 i64.add
    local.get $n i64.const 1097 i64.add  local.get $n i64.const 1098 i64.add  local.get $n i64.const 1099 i64.add  local.get $n i64.const 1100 i64.add
    local.get $n i64.const 1101 i64.add  local.get $n i64.const 1102 i64.add  local.get $n i64.const 1103 i64.add  local.get $n i64.const 1104 i64.add
    local.get $n i64.const 1105 i64.add  local.get $n i64.const 1106 i64.add  local.get $n i64.const 1107 i64.add  local.get $n i64.const 1108 i64.add
    local.get $n i64.const 1109 i64.add  local.get $n i64.const 1110 i64.add  local.get $n i64.const 1111 i64.add  local.get $n i64.const 1112 i64.add
    local.get $n i64.const 1113 i64.add  local.get $n i64.const 1114 i64.add  local.get $n i64.const 1115 i64.add  local.get $n i64.const 1116 i64.add
    local.get $n i64.const 1117 i64.add  local.get $n i64.const 1118 i64.add  local.get $n i64.const 1119 i64.add  local.get $n i64.const 1120 i64.add
    local.get $n i64.const 1121 i64.add  local.get $n i64.const 1122 i64.add  local.get $n i64.const 1123 i64.add  local.get $n i64.const 1124 i64.add
    local.get $n i64.const 1125 i64.add  local.get $n i64.const 1126 i64.add  local.get $n i64.const 1127 i64.add  local.get $n i64.const 1128 i64.add
    local.get $n i64.const 1129 i64.add  local.get $n i64.const 1130 i64.add  local.get $n i64.const 1131 i64.add  local.get $n i64.const 1132 i64.add
    local.get $n i64.const 1133 i64.add  local.get $n i64.const 1134 i64.add  local.get $n i64.const 1135 i64.add  local.get $n i64.const 1136 i64.add
    local.get $n i64.const 1137 i64.add  local.get $n i64.const 1138 i64.add  local.get $n i64.const 1139 i64.add  local.get $n i64.const 1140 i64.add
    local.get $n i64.const 1141 i64.add  local.get $n i64.const 1142 i64.add  local.get $n i64.const 1143 i64.add  local.get $n i64.const 1144 i64.add
    local.get $n i64.const 1145 i64.add  local.get $n i64.const 1146 i64.add  local.get $n i64.const 1147 i64.add  local.get $n i64.const 1148 i64.add
    local.get $n i64.const 1149 i64.add  local.get $n i64.const 1150 i64.add  local.get $n i64.const 1151 i64.add  local.get $n i64.const 1152 i64.add
    local.get $n i64.const 1153 i64.add  local.get $n i64.const 1154 i64.add  local.get $n i64.const 1155 i64.add  local.get $n i64.const 1156 i64.add
    local.get $n i64.const 1157 i64.add  local.get $n i64.const 1158 i64.add  local.get $n i64.const 1159 i64.add  local.get $n i64.const 1160 i64.add
    local.get $n i64.const 1161 i64.add  local.get $n i64.const 1162 i64.add  local.get $n i64.const 1163 i64.add  local.get $n i64.const 1164 i64.add
    local.get $n i64.const 1165 i64.add  local.get $n i64.const 1166 i64.add  local.get $n i64.const 1167 i64.add  local.get $n i64.const 1168 i64.add
    local.get $n i64.const 1169 i64.add  local.get $n i64.const 1170 i64.add  local.get $n i64.const 1171 i64.add  local.get $n i64.const 1172 i64.add
    local.get $n i64.const 1173 i64.add  local.get $n i64.const 1174 i64.add  local.get $n i64.const 1175 i64.add  local.get $n i64.const 1176 i64.add
    local.get $n i64.const 1177 i64.add  local.get $n i64.const 1178 i64.add  local.get $n i64.const 1179 i64.add  local.get $n i64.const 1180 i64.add
    local.get $n i64.const 1181 i64.add  local.get $n i64.const 1182 i64.add  local.get $n i64.const 1183 i64.add  local.get $n i64.const 1184 i64.add
    local.get $n i64.const 1185 i64.add  local.get $n i64.const 1186 i64.add  local.get $n i64.const 1187 i64.add  local.get $n i64.const 1188 i64.add
    local.get $n i64.const 1189 i64.add  local.get $n i64.const 1190 i64.add  local.get $n i64.const 1191 i64.add  local.get $n i64.const 1192 i64.add
    local.get $n i64.const 1193 i64.add  local.get $n i64.const 1194 i64.add  local.get $n i64.const 1195 i64.add  local.get $n i64.const 1196 i64.add
    local.get $n i64.const 1197 i64.add  local.get $n i64.const 1198 i64.add  local.get $n i64.const 1199 i64.add  local.get $n i64.const 1200 i64.add
    local.get $n i64.const 1201 i64.add  local.get $n i64.const 1202 i64.add  local.get $n i64.const 1203 i64.add  local.get $n i64.const 1204 i64.add
    local.get $n i64.const 1205 i64.add  local.get $n i64.const 1206 i64.add  local.get $n i64.const 1207 i64.add  local.get $n i64.const 1208 i64.add
    local.get $n i64.const 1209 i64.add  local.get $n i64.const 1210 i64.add  local.get $n i64.const 1211 i64.add  local.get $n i64.const 1212 i64.add
    local.get $n i64.const 1213 i64.add  local.get $n i64.const 1214 i64.add  local.get $n i64.const 1215 i64.add  local.get $n i64.const 1216 i64.add
    local.get $n i64.const 1217 i64.add  local.get $n i64.const 1218 i64.add  local.get $n i64.const 1219 i64.add  local.get $n i64.const 1220 i64.add
    local.get $n i64.const 1221 i64.add  local.get $n i64.const 1222 i64.add  local.get $n i64.const 1223 i64.add  local.get $n i64.const 1224 i64.add
    local.get $n i64.const 1225 i64.add  local.get $n i64.const 1226 i64.add  local.get $n i64.const 1227 i64.add  local.get $n i64.const 1228 i64.add
    local.get $n i64.const 1229 i64.add  local.get $n i64.const 1230 i64.add  local.get $n i64.const 1231 i64.add  local.get $n i64.const 1232 i64.add
    local.get $n i64.const 1233 i64.add  local.get $n i64.const 1234 i64.add  local.get $n i64.const 1235 i64.add  local.get $n i64.const 1236 i64.add
    local.get $n i64.const 1237 i64.add  local.get $n i64.const 1238 i64.add  local.get $n i64.const 1239 i64.add  local.get $n i64.const 1240 i64.add
    local.get $n i64.const 1241 i64.add  local.get $n i64.const 1242 i64.add  local.get $n i64.const 1243 i64.add  local.get $n i64.const 1244 i64.add
    local.get $n i64.const 1245 i64.add  local.get $n i64.const 1246 i64.add  local.get $n i64.const 1247 i64.add  local.get $n i64.const 1248 i64.add
    local.get $n i64.const 1249 i64.add  local.get $n i64.const 1250 i64.add  local.get $n i64.const 1251 i64.add  local.get $n i64.const 1252 i64.add
    local.get $n i64.const 1253 i64.add  local.get $n i64.const 1254 i64.add  local.get $n i64.const 1255 i64.add  local.get $n i64.const 1256 i64.add
    local.get $n i64.const 1257 i64.add  local.get $n i64.const 1258 i64.add  local.get $n i64.const 1259 i64.add  local.get $n i64.const 1260 i64.add
    local.get $n i64.const 1261 i64.add  local.get $n i64.const 1262 i64.add  local.get $n i64.const 1263 i64.add  local.get $n i64.const 1264 i64.add
    local.get $n i64.const 1265 i64.add  local.get $n i64.const 1266 i64.add  local.get $n i64.const 1267 i64.add  local.get $n i64.const 1268 i64.add
    local.get $n i64.const 1269 i64.add  local.get $n i64.const 1270 i64.add  local.get $n i64.const 1271 i64.add  local.get $n i64.const 1272 i64.add
    local.get $n i64.const 1273 i64.add  local.get $n i64.const 1274 i64.add  local.get $n i64.const 1275 i64.add  local.get $n i64.const 1276 i64.add
    local.get $n i64.const 1277 i64.add  local.get $n i64.const 1278 i64.add  local.get $n i64.const 1279 i64.add  local.get $n i64.const 1280 i64.add
    local.get $n i64.const 1281 i64.add  local.get $n i64.const 1282 i64.add  local.get $n i64.const 1283 i64.add  local.get $n i64.const 1284 i64.add
    local.get $n i64.const 1285 i64.add  local.get $n i64.const 1286 i64.add  local.get $n i64.const 1287 i64.add  local.get $n i64.const 1288 i64.add
    local.get $n i64.const 1289 i64.add  local.get $n i64.const 1290 i64.add  local.get $n i64.const 1291 i64.add  local.get $n i64.const 1292 i64.add
    local.get $n i64.const 1293 i64.add  local.get $n i64.const 1294 i64.add  local.get $n i64.const 1295 i64.add  local.get $n i64.const 1296 i64.add
    local.get $n i64.const 1297 i64.add  local.get $n i64.const 1298 i64.add  local.get $n i64.const 1299 i64.add  local.get $n i64.const 1300 i64.add
    local.get $n i64.const 1301 i64.add  local.get $n i64.const 1302 i64.add  local.get $n i64.const 1303 i64.add  local.get $n i64.const 1304 i64.add
    local.get $n i64.const 1305 i64.add  local.get $n i64.const 1306 i64.add  local.get $n i64.const 1307 i64.add  local.get $n i64.const 1308 i64.add
    local.get $n i64.const 1309 i64.add  local.get $n i64.const 1310 i64.add  local.get $n i64.const 1311 i64.add  local.get $n i64.const 1312 i64.add
    local.get $n i64.const 1313 i64.add  local.get $n i64.const 1314 i64.add  local.get $n i64.const 1315 i64.add  local.get $n i64.const 1316 i64.add
    local.get $n i64.const 1317 i64.add  local.get $n i64.const 1318 i64.add  local.get $n i64.const 1319 i64.add  local.get $n i64.const 1320 i64.add
    local.get $n i64.const 1321 i64.add  local.get $n i64.const 1322 i64.add  local.get $n i64.const 1323 i64.add  local.get $n i64.const 1324 i64.add
    local.get $n i64.const 1325 i64.add  local.get $n i64.const 1326 i64.add  local.get $n i64.const 1327 i64.add  local.get $n i64.const 1328 i64.add
    local.get $n i64.const 1329 i64.add  local.get $n i64.const 1330 i64.add  local.get $n i64.const 1331 i64.add  local.get $n i64.const 1332 i64.add
    local.get $n i64.const 1333 i64.add  local.get $n i64.const 1334 i64.add  local.get $n i64.const 1335 i64.add  local.get $n i64.const 1336 i64.add
    local.get $n i64.const 1337 i64.add  local.get $n i64.const 1338 i64.add  local.get $n i64.const 1339 i64.add  local.get $n i64.const 1340 i64.add
    local.get $n i64.const 1341 i64.add  local.get $n i64.const 1342 i64.add  local.get $n i64.const 1343 i64.add  local.get $n i64.const 1344 i64.add
    local.get $n i64.const 1345 i64.add  local.get $n i64.const 1346 i64.add  local.get $n i64.const 1347 i64.add  local.get $n i64.const 1348 i64.add
    local.get $n i64.const 1349 i64.add  local.get $n i64.const 1350 i64.add  local.get $n i64.const 1351 i64.add  local.get $n i64.const 1352 i64.add
    local.get $n i64.const 1353 i64.add  local.get $n i64.const 1354 i64.add  local.get $n i64.const 1355 i64.add  local.get $n i64.const 1356 i64.add
    local.get $n i64.const 1357 i64.add  local.get $n i64.const 1358 i64.add  local.get $n i64.const 1359 i64.add  local.get $n i64.const 1360 i64.add
    local.get $n i64.const 1361 i64.add  local.get $n i64.const 1362 i64.add  local.get $n i64.const 1363 i64.add  local.get $n i64.const 1364 i64.add
    local.get $n i64.const 1365 i64.add  local.get $n i64.const 1366 i64.add  local.get $n i64.const 1367 i64.add  local.get $n i64.const 1368 i64.add
    local.get $n i64.const 1369 i64.add  local.get $n i64.const 1370 i64.add  local.get $n i64.const 1371 i64.add  local.get $n i64.const 1372 i64.add
    local.get $n i64.const 1373 i64.add  local.get $n i64.const 1374 i64.add  local.get $n i64.const 1375 i64.add  local.get $n i64.const 1376 i64.add
    local.get $n i64.const 1377 i64.add  local.get $n i64.const 1378 i64.add  local.get $n i64.const 1379 i64.add  local.get $n i64.const 1380 i64.add
    local.get $n i64.const 1381 i64.add  local.get $n i64.const 1382 i64.add  local.get $n i64.const 1383 i64.add  local.get $n i64.const 1384 i64.add
    local.get $n i64.const 1385 i64.add  local.get $n i64.const 1386 i64.add  local.get $n i64.const 1387 i64.add  local.get $n i64.const 1388 i64.add
    local.get $n i64.const 1389 i64.add  local.get $n i64.const 1390 i64.add  local.get $n i64.const 1391 i64.add  local.get $n i64.const 1392 i64.add
    local.get $n i64.const 1393 i64.add  local.get $n i64.const 1394 i64.add  local.get $n i64.const 1395 i64.add  local.get $n i64.const 1396 i64.add
    local.get $n i64.const 1397 i64.add  local.get $n i64.const 1398 i64.add  local.get $n i64.const 1399 i64.add  local.get $n i64.const 1400 i64.add
    local.get $n i64.const 1401 i64.add  local.get $n i64.const 1402 i64.add  local.get $n i64.const 1403 i64.add  local.get $n i64.const 1404 i64.add
    local.get $n i64.const 1405 i64.add  local.get $n i64.const 1406 i64.add  local.get $n i64.const 1407 i64.add  local.get $n i64.const 1408 i64.add
    local.get $n i64.const 1409 i64.add  local.get $n i64.const 1410 i64.add  local.get $n i64.const 1411 i64.add  local.get $n i64.const 1412 i64.add
    local.get $n i64.const 1413 i64.add  local.get $n i64.const 1414 i64.add  local.get $n i64.const 1415 i64.add  local.get $n i64.const 1416 i64.add
    local.get $n i64.const 1417 i64.add  local.get $n i64.const 1418 i64.add  local.get $n i64.const 1419 i64.add  local.get $n i64.const 1420 i64.add
    local.get $n i64.const 1421 i64.add  local.get $n i64.const 1422 i64.add  local.get $n i64.const 1423 i64.add  local.get $n i64.const 1424 i64.add
    local.get $n i64.const 1425 i64.add  local.get $n i64.const 1426 i64.add  local.get $n i64.const 1427 i64.add  local.get $n i64.const 1428 i64.add
    local.get $n i64.const 1429 i64.add  local.get $n i64.const 1430 i64.add  local.get $n i64.const 1431 i64.add  local.get $n i64.const 1432 i64.add
    local.get $n i64.const 1433 i64.add  local.get $n i64.const 1434 i64.add  local.get $n i64.const 1435 i64.add  local.get $n i64.const 1436 i64.add
    local.get $n i64.const 1437 i64.add  local.get $n i64.const 1438 i64.add  local.get $n i64.const 1439 i64.add  local.get $n i64.const 1440 i64.add
    local.get $n i64.const 1441 i64.add  local.get $n i64.const 1442 i64.add  local.get $n i64.const 1443 i64.add  local.get $n i64.const 1444 i64.add
    local.get $n i64.const 1445 i64.add  local.get $n i64.const 1446 i64.add  local.get $n i64.const 1447 i64.add  local.get $n i64.const 1448 i64.add
    local.get $n i64.const 1449 i64.add  local.get $n i64.const 1450 i64.add  local.get $n i64.const 1451 i64.add  local.get $n i64.const 1452 i64.add
    local.get $n i64.const 1453 i64.add  local.get $n i64.const 1454 i64.add  local.get $n i64.const 1455 i64.add  local.get $n i64.const 1456 i64.add
    local.get $n i64.const 1457 i64.add  local.get $n i64.const 1458 i64.add  local.get $n i64.const 1459 i64.add  local.get $n i64.const 1460 i64.add
    local.get $n i64.const 1461 i64.add  local.get $n i64.const 1462 i64.add  local.get $n i64.const 1463 i64.add  local.get $n i64.const 1464 i64.add
    local.get $n i64.const 1465 i64.add  local.get $n i64.const 1466 i64.add  local.get $n i64.const 1467 i64.add  local.get $n i64.const 1468 i64.add
    local.get $n i64.const 1469 i64.add  local.get $n i64.const 1470 i64.add  local.get $n i64.const 1471 i64.add  local.get $n i64.const 1472 i64.add
    local.get $n i64.const 1473 i64.add  local.get $n i64.const 1474 i64.add  local.get $n i64.const 1475 i64.add  local.get $n i64.const 1476 i64.add
    local.get $n i64.const 1477 i64.add  local.get $n i64.const 1478 i64.add  local.get $n i64.const 1479 i64.add  local.get $n i64.const 1480 i64.add
    local.get $n i64.const 1481 i64.add  local.get $n i64.const 1482 i64.add  local.get $n i64.const 1483 i64.add  local.get $n i64.const 1484 i64.add
    local.get $n i64.const 1485 i64.add  local.get $n i64.const 1486 i64.add  local.get $n i64.const 1487 i64.add  local.get $n i64.const 1488 i64.add
    local.get $n i64.const 1489 i64.add  local.get $n i64.const 1490 i64.add  local.get $n i64.const 1491 i64.add  local.get $n i64.const 1492 i64.add
    local.get $n i64.const 1493 i64.add  local.get $n i64.const 1494 i64.add  local.get $n i64.const 1495 i64.add  local.get $n i64.const 1496 i64.add
    local.get $n i64.const 1497 i64.add  local.get $n i64.const 1498 i64.add  local.get $n i64.const 1499 i64.add  local.get $n i64.const 1500 i64.add
    local.get $n i64.const 1501 i64.add  local.get $n i64.const 1502 i64.add  local.get $n i64.const 1503 i64.add  local.get $n i64.const 1504 i64.add
    local.get $n i64.const 1505 i64.add  local.get $n i64.const 1506 i64.add  local.get $n i64.const 1507 i64.add  local.get $n i64.const 1508 i64.add
    local.get $n i64.const 1509 i64.add  local.get $n i64.const 1510 i64.add  local.get $n i64.const 1511 i64.add  local.get $n i64.const 1512 i64.add
    local.get $n i64.const 1513 i64.add  local.get $n i64.const 1514 i64.add  local.get $n i64.const 1515 i64.add  local.get $n i64.const 1516 i64.add
    local.get $n i64.const 1517 i64.add  local.get $n i64.const 1518 i64.add  local.get $n i64.const 1519 i64.add  local.get $n i64.const 1520 i64.add
    local.get $n i64.const 1521 i64.add  local.get $n i64.const 1522 i64.add  local.get $n i64.const 1523 i64.add  local.get $n i64.const 1524 i64.add
    local.get $n i64.const 1525 i64.add  local.get $n i64.const 1526 i64.add  local.get $n i64.const 1527 i64.add  local.get $n i64.const 1528 i64.add
    local.get $n i64.const 1529 i64.add  local.get $n i64.const 1530 i64.add  local.get $n i64.const 1531 i64.add  local.get $n i64.const 1532 i64.add
    local.get $n i64.const 1533 i64.add  local.get $n i64.const 1534 i64.add  local.get $n i64.const 1535 i64.add  local.get $n i64.const 1536 i64.add
    local.get $n i64.const 1537 i64.add  local.get $n i64.const 1538 i64.add  local.get $n i64.const 1539 i64.add  local.get $n i64.const 1540 i64.add
    local.get $n i64.const 1541 i64.add  local.get $n i64.const 1542 i64.add  local.get $n i64.const 1543 i64.add  local.get $n i64.const 1544 i64.add
    local.get $n i64.const 1545 i64.add  local.get $n i64.const 1546 i64.add  local.get $n i64.const 1547 i64.add  local.get $n i64.const 1548 i64.add
    local.get $n i64.const 1549 i64.add  local.get $n i64.const 1550 i64.add  local.get $n i64.const 1551 i64.add  local.get $n i64.const 1552 i64.add
    local.get $n i64.const 1553 i64.add  local.get $n i64.const 1554 i64.add  local.get $n i64.const 1555 i64.add  local.get $n i64.const 1556 i64.add
    local.get $n i64.const 1557 i64.add  local.get $n i64.const 1558 i64.add  local.get $n i64.const 1559 i64.add  local.get $n i64.const 1560 i64.add
    local.get $n i64.const 1561 i64.add  local.get $n i64.const 1562 i64.add  local.get $n i64.const 1563 i64.add  local.get $n i64.const 1564 i64.add
    local.get $n i64.const 1565 i64.add  local.get $n i64.const 1566 i64.add  local.get $n i64.const 1567 i64.add  local.get $n i64.const 1568 i64.add
    local.get $n i64.const 1569 i64.add  local.get $n i64.const 1570 i64.add  local.get $n i64.const 1571 i64.add  local.get $n i64.const 1572 i64.add
    local.get $n i64.const 1573 i64.add  local.get $n i64.const 1574 i64.add  local.get $n i64.const 1575 i64.add  local.get $n i64.const 1576 i64.add
    local.get $n i64.const 1577 i64.add  local.get $n i64.const 1578 i64.add  local.get $n i64.const 1579 i64.add  local.get $n i64.const 1580 i64.add
    local.get $n i64.const 1581 i64.add  local.get $n i64.const 1582 i64.add  local.get $n i64.const 1583 i64.add  local.get $n i64.const 1584 i64.add
    local.get $n i64.const 1585 i64.add  local.get $n i64.const 1586 i64.add  local.get $n i64.const 1587 i64.add  local.get $n i64.const 1588 i64.add
    local.get $n i64.const 1589 i64.add  local.get $n i64.const 1590 i64.add  local.get $n i64.const 1591 i64.add  local.get $n i64.const 1592 i64.add
    local.get $n i64.const 1593 i64.add  local.get $n i64.const 1594 i64.add  local.get $n i64.const 1595 i64.add  local.get $n i64.const 1596 i64.add
    local.get $n i64.const 1597 i64.add  local.get $n i64.const 1598 i64.add  local.get $n i64.const 1599 i64.add  local.get $n i64.const 1600 i64.add
    local.get $n i64.const 1601 i64.add  local.get $n i64.const 1602 i64.add  local.get $n i64.const 1603 i64.add  local.get $n i64.const 1604 i64.add
    local.get $n i64.const 1605 i64.add  local.get $n i64.const 1606 i64.add  local.get $n i64.const 1607 i64.add  local.get $n i64.const 1608 i64.add
    local.get $n i64.const 1609 i64.add  local.get $n i64.const 1610 i64.add  local.get $n i64.const 1611 i64.add  local.get $n i64.const 1612 i64.add
    local.get $n i64.const 1613 i64.add  local.get $n i64.const 1614 i64.add  local.get $n i64.const 1615 i64.add  local.get $n i64.const 1616 i64.add
    local.get $n i64.const 1617 i64.add  local.get $n i64.const 1618 i64.add  local.get $n i64.const 1619 i64.add  local.get $n i64.const 1620 i64.add
    local.get $n i64.const 1621 i64.add  local.get $n i64.const 1622 i64.add  local.get $n i64.const 1623 i64.add  local.get $n i64.const 1624 i64.add
    local.get $n i64.const 1625 i64.add  local.get $n i64.const 1626 i64.add  local.get $n i64.const 1627 i64.add  local.get $n i64.const 1628 i64.add
    local.get $n i64.const 1629 i64.add  local.get $n i64.const 1630 i64.add  local.get $n i64.const 1631 i64.add  local.get $n i64.const 1632 i64.add
    local.get $n i64.const 1633 i64.add  local.get $n i64.const 1634 i64.add  local.get $n i64.const 1635 i64.add  local.get $n i64.const 1636 i64.add
    local.get $n i64.const 1637 i64.add  local.get $n i64.const 1638 i64.add  local.get $n i64.const 1639 i64.add  local.get $n i64.const 1640 i64.add
    local.get $n i64.const 1641 i64.add  local.get $n i64.const 1642 i64.add  local.get $n i64.const 1643 i64.add  local.get $n i64.const 1644 i64.add
    local.get $n i64.const 1645 i64.add  local.get $n i64.const 1646 i64.add  local.get $n i64.const 1647 i64.add  local.get $n i64.const 1648 i64.add
    local.get $n i64.const 1649 i64.add  local.get $n i64.const 1650 i64.add  local.get $n i64.const 1651 i64.add  local.get $n i64.const 1652 i64.add
    local.get $n i64.const 1653 i64.add  local.get $n i64.const 1654 i64.add  local.get $n i64.const 1655 i64.add  local.get $n i64.const 1656 i64.add
    local.get $n i64.const 1657 i64.add  local.get $n i64.const 1658 i64.add  local.get $n i64.const 1659 i64.add  local.get $n i64.const 1660 i64.add
    local.get $n i64.const 1661 i64.add  local.get $n i64.const 1662 i64.add  local.get $n i64.const 1663 i64.add  local.get $n i64.const 1664 i64.add
    local.get $n i64.const 1665 i64.add  local.get $n i64.const 1666 i64.add  local.get $n i64.const 1667 i64.add  local.get $n i64.const 1668 i64.add
    local.get $n i64.const 1669 i64.add  local.get $n i64.const 1670 i64.add  local.get $n i64.const 1671 i64.add  local.get $n i64.const 1672 i64.add
    local.get $n i64.const 1673 i64.add  local.get $n i64.const 1674 i64.add  local.get $n i64.const 1675 i64.add  local.get $n i64.const 1676 i64.add
    local.get $n i64.const 1677 i64.add  local.get $n i64.const 1678 i64.add  local.get $n i64.const 1679 i64.add  local.get $n i64.const 1680 i64.add
    local.get $n i64.const 1681 i64.add  local.get $n i64.const 1682 i64.add  local.get $n i64.const 1683 i64.add  local.get $n i64.const 1684 i64.add
    local.get $n i64.const 1685 i64.add  local.get $n i64.const 1686 i64.add  local.get $n i64.const 1687 i64.add  local.get $n i64.const 1688 i64.add
    local.get $n i64.const 1689 i64.add  local.get $n i64.const 1690 i64.add  local.get $n i64.const 1691 i64.add  local.get $n i64.const 1692 i64.add
    local.get $n i64.const 1693 i64.add  local.get $n i64.const 1694 i64.add  local.get $n i64.const 1695 i64.add  local.get $n i64.const 1696 i64.add
    local.get $n i64.const 1697 i64.add  local.get $n i64.const 1698 i64.add  local.get $n i64.const 1699 i64.add  local.get $n i64.const 1700 i64.add
    local.get $n i64.const 1701 i64.add  local.get $n i64.const 1702 i64.add  local.get $n i64.const 1703 i64.add  local.get $n i64.const 1704 i64.add
    local.get $n i64.const 1705 i64.add  local.get $n i64.const 1706 i64.add  local.get $n i64.const 1707 i64.add  local.get $n i64.const 1708 i64.add
    local.get $n i64.const 1709 i64.add  local.get $n i64.const 1710 i64.add  local.get $n i64.const 1711 i64.add  local.get $n i64.const 1712 i64.add
    local.get $n i64.const 1713 i64.add  local.get $n i64.const 1714 i64.add  local.get $n i64.const 1715 i64.add  local.get $n i64.const 1716 i64.add
    local.get $n i64.const 1717 i64.add  local.get $n i64.const 1718 i64.add  local.get $n i64.const 1719 i64.add  local.get $n i64.const 1720 i64.add
    local.get $n i64.const 1721 i64.add  local.get $n i64.const 1722 i64.add  local.get $n i64.const 1723 i64.add  local.get $n i64.const 1724 i64.add
    local.get $n i64.const 1725 i64.add  local.get $n i64.const 1726 i64.add  local.get $n i64.const 1727 i64.add  local.get $n i64.const 1728 i64.add
    local.get $n i64.const 1729 i64.add  local.get $n i64.const 1730 i64.add  local.get $n i64.const 1731 i64.add  local.get $n i64.const 1732 i64.add
    local.get $n i64.const 1733 i64.add  local.get $n i64.const 1734 i64.add  local.get $n i64.const 1735 i64.add  local.get $n i64.const 1736 i64.add
    local.get $n i64.const 1737 i64.add  local.get $n i64.const 1738 i64.add  local.get $n i64.const 1739 i64.add  local.get $n i64.const 1740 i64.add
    local.get $n i64.const 1741 i64.add  local.get $n i64.const 1742 i64.add  local.get $n i64.const 1743 i64.add  local.get $n i64.const 1744 i64.add
    local.get $n i64.const 1745 i64.add  local.get $n i64.const 1746 i64.add  local.get $n i64.const 1747 i64.add  local.get $n i64.const 1748 i64.add
    local.get $n i64.const 1749 i64.add  local.get $n i64.const 1750 i64.add  local.get $n i64.const 1751 i64.add  local.get $n i64.const 1752 i64.add
    local.get $n i64.const 1753 i64.add  local.get $n i64.const 1754 i64.add  local.get $n i64.const 1755 i64.add  local.get $n i64.const 1756 i64.add
    local.get $n i64.const 1757 i64.add  local.get $n i64.const 1758 i64.add  local.get $n i64.const 1759 i64.add  local.get $n i64.const 1760 i64.add
    local.get $n i64.const 1761 i64.add  local.get $n i64.const 1762 i64.add  local.get $n i64.const 1763 i64.add  local.get $n i64.const 1764 i64.add
    local.get $n i64.const 1765 i64.add  local.get $n i64.const 1766 i64.add  local.get $n i64.const 1767 i64.add  local.get $n i64.const 1768 i64.add
    local.get $n i64.const 1769 i64.add  local.get $n i64.const 1770 i64.add  local.get $n i64.const 1771 i64.add  local.get $n i64.const 1772 i64.add
    local.get $n i64.const 1773 i64.add  local.get $n i64.const 1774 i64.add  local.get $n i64.const 1775 i64.add  local.get $n i64.const 1776 i64.add
    local.get $n i64.const 1777 i64.add  local.get $n i64.const 1778 i64.add  local.get $n i64.const 1779 i64.add  local.get $n i64.const 1780 i64.add
    local.get $n i64.const 1781 i64.add  local.get $n i64.const 1782 i64.add  local.get $n i64.const 1783 i64.add  local.get $n i64.const 1784 i64.add
    local.get $n i64.const 1785 i64.add  local.get $n i64.const 1786 i64.add  local.get $n i64.const 1787 i64.add  local.get $n i64.const 1788 i64.add
    local.get $n i64.const 1789 i64.add  local.get $n i64.const 1790 i64.add  local.get $n i64.const 1791 i64.add  local.get $n i64.const 1792 i64.add
    local.get $n i64.const 1793 i64.add  local.get $n i64.const 1794 i64.add  local.get $n i64.const 1795 i64.add  local.get $n i64.const 1796 i64.add
    local.get $n i64.const 1797 i64.add  local.get $n i64.const 1798 i64.add  local.get $n i64.const 1799 i64.add  local.get $n i64.const 1800 i64.add
    local.get $n i64.const 1801 i64.add  local.get $n i64.const 1802 i64.add  local.get $n i64.const 1803 i64.add  local.get $n i64.const 1804 i64.add
    local.get $n i64.const 1805 i64.add  local.get $n i64.const 1806 i64.add  local.get $n i64.const 1807 i64.add  local.get $n i64.const 1808 i64.add
    local.get $n i64.const 1809 i64.add  local.get $n i64.const 1810 i64.add  local.get $n i64.const 1811 i64.add  local.get $n i64.const 1812 i64.add
    local.get $n i64.const 1813 i64.add  local.get $n i64.const 1814 i64.add  local.get $n i64.const 1815 i64.add  local.get $n i64.const 1816 i64.add
    local.get $n i64.const 1817 i64.add  local.get $n i64.const 1818 i64.add  local.get $n i64.const 1819 i64.add  local.get $n i64.const 1820 i64.add
    local.get $n i64.const 1821 i64.add  local.get $n i64.const 1822 i64.add  local.get $n i64.const 1823 i64.add  local.get $n i64.const 1824 i64.add
    local.get $n i64.const 1825 i64.add  local.get $n i64.const 1826 i64.add  local.get $n i64.const 1827 i64.add  local.get $n i64.const 1828 i64.add
    local.get $n i64.const 1829 i64.add  local.get $n i64.const 1830 i64.add  local.get $n i64.const 1831 i64.add  local.get $n i64.const 1832 i64.add
    local.get $n i64.const 1833 i64.add  local.get $n i64.const 1834 i64.add  local.get $n i64.const 1835 i64.add  local.get $n i64.const 1836 i64.add
    local.get $n i64.const 1837 i64.add  local.get $n i64.const 1838 i64.add  local.get $n i64.const 1839 i64.add  local.get $n i64.const 1840 i64.add
    local.get $n i64.const 1841 i64.add  local.get $n i64.const 1842 i64.add  local.get $n i64.const 1843 i64.add  local.get $n i64.const 1844 i64.add
    local.get $n i64.const 1845 i64.add  local.get $n i64.const 1846 i64.add  local.get $n i64.const 1847 i64.add  local.get $n i64.const 1848 i64.add
    local.get $n i64.const 1849 i64.add  local.get $n i64.const 1850 i64.add  local.get $n i64.const 1851 i64.add  local.get $n i64.const 1852 i64.add
    local.get $n i64.const 1853 i64.add  local.get $n i64.const 1854 i64.add  local.get $n i64.const 1855 i64.add  local.get $n i64.const 1856 i64.add
    local.get $n i64.const 1857 i64.add  local.get $n i64.const 1858 i64.add  local.get $n i64.const 1859 i64.add  local.get $n i64.const 1860 i64.add
    local.get $n i64.const 1861 i64.add  local.get $n i64.const 1862 i64.add  local.get $n i64.const 1863 i64.add  local.get $n i64.const 1864 i64.add
    local.get $n i64.const 1865 i64.add  local.get $n i64.const 1866 i64.add  local.get $n i64.const 1867 i64.add  local.get $n i64.const 1868 i64.add
    local.get $n i64.const 1869 i64.add  local.get $n i64.const 1870 i64.add  local.get $n i64.const 1871 i64.add  local.get $n i64.const 1872 i64.add
    local.get $n i64.const 1873 i64.add  local.get $n i64.const 1874 i64.add  local.get $n i64.const 1875 i64.add  local.get $n i64.const 1876 i64.add
    local.get $n i64.const 1877 i64.add  local.get $n i64.const 1878 i64.add  local.get $n i64.const 1879 i64.add  local.get $n i64.const 1880 i64.add
    local.get $n i64.const 1881 i64.add  local.get $n i64.const 1882 i64.add  local.get $n i64.const 1883 i64.add  local.get $n i64.const 1884 i64.add
    local.get $n i64.const 1885 i64.add  local.get $n i64.const 1886 i64.add  local.get $n i64.const 1887 i64.add  local.get $n i64.const 1888 i64.add
    local.get $n i64.const 1889 i64.add  local.get $n i64.const 1890 i64.add  local.get $n i64.const 1891 i64.add  local.get $n i64.const 1892 i64.add
    local.get $n i64.const 1893 i64.add  local.get $n i64.const 1894 i64.add  local.get $n i64.const 1895 i64.add  local.get $n i64.const 1896 i64.add
    local.get $n i64.const 1897 i64.add  local.get $n i64.const 1898 i64.add  local.get $n i64.const 1899 i64.add  local.get $n i64.const 1900 i64.add
    local.get $n i64.const 1901 i64.add  local.get $n i64.const 1902 i64.add  local.get $n i64.const 1903 i64.add  local.get $n i64.const 1904 i64.add
    local.get $n i64.const 1905 i64.add  local.get $n i64.const 1906 i64.add  local.get $n i64.const 1907 i64.add  local.get $n i64.const 1908 i64.add
    local.get $n i64.const 1909 i64.add  local.get $n i64.const 1910 i64.add  local.get $n i64.const 1911 i64.add  local.get $n i64.const 1912 i64.add
    local.get $n i64.const 1913 i64.add  local.get $n i64.const 1914 i64.add  local.get $n i64.const 1915 i64.add  local.get $n i64.const 1916 i64.add
    local.get $n i64.const 1917 i64.add  local.get $n i64.const 1918 i64.add  local.get $n i64.const 1919 i64.add  local.get $n i64.const 1920 i64.add
    local.get $n i64.const 1921 i64.add  local.get $n i64.const 1922 i64.add  local.get $n i64.const 1923 i64.add  local.get $n i64.const 1924 i64.add
    local.get $n i64.const 1925 i64.add  local.get $n i64.const 1926 i64.add  local.get $n i64.const 1927 i64.add  local.get $n i64.const 1928 i64.add
    local.get $n i64.const 1929 i64.add  local.get $n i64.const 1930 i64.add  local.get $n i64.const 1931 i64.add  local.get $n i64.const 1932 i64.add
    local.get $n i64.const 1933 i64.add  local.get $n i64.const 1934 i64.add  local.get $n i64.const 1935 i64.add  local.get $n i64.const 1936 i64.add
    local.get $n i64.const 1937 i64.add  local.get $n i64.const 1938 i64.add  local.get $n i64.const 1939 i64.add  local.get $n i64.const 1940 i64.add
    local.get $n i64.const 1941 i64.add  local.get $n i64.const 1942 i64.add  local.get $n i64.const 1943 i64.add  local.get $n i64.const 1944 i64.add
    local.get $n i64.const 1945 i64.add  local.get $n i64.const 1946 i64.add  local.get $n i64.const 1947 i64.add  local.get $n i64.const 1948 i64.add
    local.get $n i64.const 1949 i64.add  local.get $n i64.const 1950 i64.add  local.get $n i64.const 1951 i64.add  local.get $n i64.const 1952 i64.add
    local.get $n i64.const 1953 i64.add  local.get $n i64.const 1954 i64.add  local.get $n i64.const 1955 i64.add  local.get $n i64.const 1956 i64.add
    local.get $n i64.const 1957 i64.add  local.get $n i64.const 1958 i64.add  local.get $n i64.const 1959 i64.add  local.get $n i64.const 1960 i64.add
    local.get $n i64.const 1961 i64.add  local.get $n i64.const 1962 i64.add  local.get $n i64.const 1963 i64.add  local.get $n i64.const 1964 i64.add
    local.get $n i64.const 1965 i64.add  local.get $n i64.const 1966 i64.add  local.get $n i64.const 1967 i64.add  local.get $n i64.const 1968 i64.add
    local.get $n i64.const 1969 i64.add  local.get $n i64.const 1970 i64.add  local.get $n i64.const 1971 i64.add  local.get $n i64.const 1972 i64.add
    local.get $n i64.const 1973 i64.add  local.get $n i64.const 1974 i64.add  local.get $n i64.const 1975 i64.add  local.get $n i64.const 1976 i64.add
    local.get $n i64.const 1977 i64.add  local.get $n i64.const 1978 i64.add  local.get $n i64.const 1979 i64.add  local.get $n i64.const 1980 i64.add
    local.get $n i64.const 1981 i64.add  local.get $n i64.const 1982 i64.add  local.get $n i64.const 1983 i64.add  local.get $n i64.const 1984 i64.add
    local.get $n i64.const 1985 i64.add  local.get $n i64.const 1986 i64.add  local.get $n i64.const 1987 i64.add  local.get $n i64.const 1988 i64.add
    local.get $n i64.const 1989 i64.add  local.get $n i64.const 1990 i64.add  local.get $n i64.const 1991 i64.add  local.get $n i64.const 1992 i64.add
    local.get $n i64.const 1993 i64.add  local.get $n i64.const 1994 i64.add  local.get $n i64.const 1995 i64.add  local.get $n i64.const 1996 i64.add
    local.get $n i64.const 1997 i64.add  local.get $n i64.const 1998 i64.add  local.get $n i64.const 1999 i64.add  local.get $n i64.const 2000 i64.add
    local.get $n
    i64.const 1
    i64.add
    call $down
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add
    i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add  i64.add)
  (func (export "probe") (result i32)
    (drop (call $down (i64.const 0)))
    (i32.const 0)))
