// A small freestanding C probe: loops, recursion, an indirect call through a
// function table, and memset/memcpy that clang lowers to memory.fill/copy.
// Built by ../build.sh (and by the toolchain test when clang is installed).

typedef unsigned int u32;

static u32 crc_table[256];
static unsigned char buf[4096];

static void crc_init(void) {
	for (u32 i = 0; i < 256; i++) {
		u32 c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

u32 crc32(const unsigned char *p, u32 n) {
	u32 c = 0xffffffffu;
	while (n--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

typedef int (*op)(int);
static int twice(int x) { return 2 * x; }
static int plus3(int x) { return x + 3; }
static op volatile ops[] = {twice, plus3};

__attribute__((noinline)) int apply(int i, int x) { return ops[i & 1](x); }

int probe(int n) {
	crc_init();
	__builtin_memset(buf, 0x5a, sizeof buf);
	for (int i = 0; i < n; i++)
		buf[i % sizeof buf] ^= (unsigned char)i;
	__builtin_memcpy(buf + 2048, buf, 1024);
	u32 c = crc32(buf, sizeof buf);
	return (int)(c ^ (u32)fib(20) ^ (u32)apply(n, n));
}
