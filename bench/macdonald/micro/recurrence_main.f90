! Times the kernels of recurrence_kernels.f90 (n = 10000, 2000 repetitions) in ns per
! iteration. Build: gfortran -O0 -c recurrence_kernels.f90 && gfortran -O0 recurrence_main.f90 recurrence_kernels.o
program m
  use iso_fortran_env
  real :: z(100000), x(100000), w(100000), q
  integer(int64) :: c0, c1, rate
  integer :: r, n
  n = 10000
  z = 0.5; x = 0.25; w = 0; q = 0
  call system_clock(count_rate=rate)
  call system_clock(c0); do r = 1, 2000; call kb(n, z, x, q); end do; call system_clock(c1)
  print '(a,f8.3)', 'B  (Q=Q+Z*X)      ns/iter', real(c1-c0)/rate/2000/n*1e9
  call system_clock(c0); do r = 1, 2000; call kw(n, z, x, w, q); end do; call system_clock(c1)
  print '(a,f8.3)', 'B* (W(I)=Q+Z*X)   ns/iter', real(c1-c0)/rate/2000/n*1e9
  call system_clock(c0); do r = 1, 2000; call ke(n, x, z); end do; call system_clock(c1)
  print '(a,f8.3)', 'E  (X(I)=X(I-1)+Y) ns/iter', real(c1-c0)/rate/2000/n*1e9
  call system_clock(c0); do r = 1, 2000; call ke2(n, x, z, w); end do; call system_clock(c1)
  print '(a,f8.3)', 'E* (W(I)=X(I-1)+Y) ns/iter', real(c1-c0)/rate/2000/n*1e9
end program
