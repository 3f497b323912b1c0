BAR.SYNC 0x0 ; //
BAR.ARV 0x1, 0x80 ;
BAR.ARV 0x1, R5 ;
BAR.ARV R4, 0x80 ;
BAR.ARV R5, R5 ;    // => BAR.ARV R5, R5;
BAR.SYNC R7, R7 ;   // => BAR.SYNC R7, R7;
BAR.SYNC R4 ;
BAR.RED.OR 0x0, P0 ;
BAR.RED.AND 0x1, 0x80, P0 ;
BAR.RED.AND 0x1, R5, P0 ;
BAR.RED.AND R4, P0 ;
BAR.RED.AND R4, 0x80, P0 ;
BAR.RED.AND R5, R5, P0 ;
B2R.RESULT RZ, P0 ;
B2R.RESULT R4 ;
B2R.BAR R4, 0x2;
B2R.WARP R4;
R2B.WARP R4;
R2B.BAR 0x4, R4;
BAR.SYNC 0x0, 0x40 ;
BAR.SYNC  R0, R1   ;
BAR.ARV  0x0, R1   ;
BAR.RED.POPC 0x0, 0x40,  PT; // 在64个线程之间进行popcount归约
BAR.RED.OR          R0, !P1; // 使用barId=R0 & 0xF的barrier，在cnt=(R0 & 0xFFF)>>4个线程之间进行逻辑或归约
B2R R0, 0x0;         // 默认为BAR模式，R0=BARState[0]
B2R.WARP R0, 0x0;    // WARP模式将当前WARP的临时WarpBARState存入R0，忽略输入的BarId
                     // WarpBARState是BAR_RED完成同步后自动下发，其他情形为未定义行为。
B2R.BAR R0, 0x0;     // 获取barrier-0的状态
BAR.RED.POPC 0x1, 0x40, PT; // 在64个线程之间进行popcount归约
...
B2R.WARP R1, 0x4;    // 获取上次BAR.RED所用barrier-1的状态，此时第2个立即数是不生效的
BAR.RED.POPC 0x0, 0x40, PT; // 在64个线程之间进行popcount归约
BAR.RESULT R0, PT;     // 获取归约结果，写入R0，并舍弃谓词输出
R2B 0x0, R0;    // 默认为BAR模式，BARState[0]=R0
R2B.WARP R0;    // WARP模式将R0存入当前WARP的临时WarpBARState中，忽略输入的BarId
R2B.BAR 0x0, R0;     // 用R0设置barrier-0的状态
BAR.RED.POPC 0x1, 0x40, PT; // 在64个线程之间进行popcount归约
...
R2B.WARP 0x4, R1;    // 用R1设置上次BAR.RED的状态信息的本地副本，此时第1个立即数是不生效的
         BRA `(label);   // target label will be replaced by label offset, should be within current kernel.
         BRA 0x110;
    @P0  BRA 0x800 ;
    @!P1 BRA.U 0x6290 ;
         BRA.DIV 0x3940 ;
         BRA.CONV 0x1730 ;
    @!P1 BRA !P2, 0x7e0 ;   // 额外Pp输入
         BRA.DIV ~URZ, 0x3910 ;
    @!P0 BRA.CONV UR4, 0xbe0 ;
BRX R6, `(.Base - . - 0x10);  // fixup形式，`.Base`为BRX目标的相对基地址，相当于跳转表项为[.L1-.Base, .L2-.Base, .L3-.Base,...]
                              // .Base一般是编译期决定的，但是可能有链接时做relocation的可能，此时因为有额外offset，需定义相关的.rela类型
                              // '.' 表示当前指令地址，相当于是一个隐式的label
BRX R6, -0x70;    // NV当前可能写作BRX R6 -0x70;
                  // 这里为了简化实现，我们强制汇编形式中只有内存地址表达式`[R#+Imm]`这种可以操作数连写，其他情况操作数必须用","分隔开。
@P0 BRX R5, -0x110;
@P0 BRX !P1, R5, -0x110;
@P0 BRX UR4, -0x110;
    BRX c[0x3][0x180];
      CALL.ABS `(.Target);      // ABS模式时.Target 必须是个symbol
      CALL.ABS 0x0;             // 等价于： CALL.ABS RZ, 0x0; 通常这是个Relocation入口，程序装载时0x0会被替换为对应Symbol的地址。
      CALL.REL `(.Label);       // REL模式时.Label可以是label？此时相当于BRA/BRX。
  @P1 CALL.ABS R[8:9], 0x110;   // 注：与BRX类似，这里同样要求GPR部分与立即数部分用","分开
  @P1 CALL.ABS P0, R[8:9], 0x110;
      CALL.ABS UR[4:5];         //
      CALL.REL c[0x2][0x100];   // 注意地址对齐，读取64bit constant memory
  LEPC R[4:5];   // default offset=0x0
  LEPC R[4:5], 0x80;
     EXIT;
@P0  EXIT;
@!P1 EXIT, P2;
   BMOV B0, R3;
   BMOV R5, B11;
   BMOV.CLEAR R6, B0;
     BSSY B0;
@P0  BSSY B15;
     BSYNC B0;
@!P2 BSYNC B0;
     YIELD;
@P0  YIELD;
@P0  YIELD !P3;
     WARPSYNC 0xffffffff;
@P0  WARPSYNC R9;
@P1  WARPSYNC P3, UR2;
     WARPSYNC c[0x2][0x100];
      NANOSLEEP 0x100;
      NANOSLEEP R3;
@P0   NANOSLEEP UR4;
@!P1  NANOSLEEP c[0x2][0x120];
