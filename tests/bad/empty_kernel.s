// run: --grid 1 --block 32
// status: 4
// expect: PC 0x0 is outside the kernel's code [0x0, 0x0)
