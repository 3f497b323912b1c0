// expect: 2:58: too many modifiers
NOP.M0.M1.M2.M3.M4.M5.M6.M7.M8.M9.M10.M11.M12.M13.M14.M15.M16 ;
