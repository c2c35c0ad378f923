// kbaudit stub: the parts of the C and C++ standard library solutions use, declared
// permissively (catch-all templates) so that code type-checks without the real headers.
#pragma once
#include <stddef.h>
#include <limits.h>
#include <float.h>
#include <stdarg.h>

typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
typedef long intmax_t;
typedef unsigned long uintmax_t;
typedef int8_t int_least8_t;
typedef int32_t int_fast32_t;
#define INT8_MAX 127
#define INT16_MAX 32767
#define INT32_MAX 2147483647
#define INT64_MAX 9223372036854775807L
#define INT32_MIN (-INT32_MAX - 1)
#define INT64_MIN (-INT64_MAX - 1)
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295U
#define UINT64_MAX 18446744073709551615UL
#define SIZE_MAX UINT64_MAX
#define PRId64 "ld"
#define PRIu64 "lu"
#define INT64_C(c) c##L
#define UINT64_C(c) c##UL

extern "C" {
typedef struct FILE FILE;
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
int printf(const char *, ...);
int fprintf(FILE *, const char *, ...);
int sprintf(char *, const char *, ...);
int snprintf(char *, size_t, const char *, ...);
int puts(const char *);
int fflush(FILE *);
FILE *fopen(const char *, const char *);
int fclose(FILE *);
size_t fread(void *, size_t, size_t, FILE *);
size_t fwrite(const void *, size_t, size_t, FILE *);
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
void *aligned_alloc(size_t, size_t);
int posix_memalign(void **, size_t, size_t);
void abort(void);
void exit(int);
char *getenv(const char *);
int setenv(const char *, const char *, int);
int atoi(const char *);
long atol(const char *);
double atof(const char *);
long strtol(const char *, char **, int);
double strtod(const char *, char **);
int rand(void);
void srand(unsigned);
void *memcpy(void *, const void *, size_t);
void *memmove(void *, const void *, size_t);
void *memset(void *, int, size_t);
int memcmp(const void *, const void *, size_t);
size_t strlen(const char *);
int strcmp(const char *, const char *);
int strncmp(const char *, const char *, size_t);
char *strcpy(char *, const char *);
char *strncpy(char *, const char *, size_t);
char *strstr(const char *, const char *);
char *strerror(int);
typedef long time_t;
typedef long clock_t;
time_t time(time_t *);
clock_t clock(void);
int usleep(unsigned);
extern int errno;
void *dlopen(const char *, int);
void *dlsym(void *, const char *);

}

// Everything below is callable from device code too, as CUDA's math and libcu++ make it.
#ifdef __CUDA__
#pragma clang force_cuda_host_device begin
#endif

extern "C" {
int abs(int);
long labs(long);
float sqrtf(float); double sqrt(double);
float expf(float); double exp(double);
float exp2f(float); double exp2(double);
float expm1f(float); double expm1(double);
float logf(float); double log(double);
float log2f(float); double log2(double);
float log10f(float); double log10(double);
float log1pf(float); double log1p(double);
float powf(float, float); double pow(double, double);
float fabsf(float); double fabs(double);
float fmaxf(float, float); double fmax(double, double);
float fminf(float, float); double fmin(double, double);
float fmaf(float, float, float); double fma(double, double, double);
float floorf(float); double floor(double);
float ceilf(float); double ceil(double);
float roundf(float); double round(double);
float truncf(float); double trunc(double);
float rintf(float); double rint(double);
long lrintf(float); long lround(double);
float fmodf(float, float); double fmod(double, double);
float tanhf(float); double tanh(double);
float sinhf(float); double sinh(double);
float coshf(float); double cosh(double);
float sinf(float); double sin(double);
float cosf(float); double cos(double);
float tanf(float); double tan(double);
float asinf(float); double asin(double);
float acosf(float); double acos(double);
float atanf(float); double atan(double);
float atan2f(float, float); double atan2(double, double);
float erff(float); double erf(double);
float erfcf(float); double erfc(double);
float erfinvf(float); double erfinv(double);
float rsqrtf(float); double rsqrt(double);
float cbrtf(float); double cbrt(double);
float hypotf(float, float); double hypot(double, double);
float copysignf(float, float); double copysign(double, double);
float ldexpf(float, int); double ldexp(double, int);
float frexpf(float, int *); double frexp(double, int *);
float nanf(const char *); double nan(const char *);
float lgammaf(float); double lgamma(double);
float tgammaf(float); double tgamma(double);
float normcdff(float); double normcdf(double);
void sincosf(float, float *, float *);
int isinf(double); int isnan(double); int isfinite(double); int signbit(double);
}
#define assert(x) ((void)(x))
#define NAN (__builtin_nanf(""))
#define INFINITY (__builtin_inff())
#define HUGE_VALF (__builtin_huge_valf())
#define M_PI 3.14159265358979323846
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#define M_2_SQRTPI 1.12837916709551257390
#define M_LN2 0.69314718055994530942
#define M_LOG2E 1.4426950408889634074
#define M_E 2.7182818284590452354
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RTLD_NOW 2
#define RTLD_LAZY 1

void *operator new(size_t, void *) noexcept;

namespace std {
using ::size_t;
using ::ptrdiff_t;
using nullptr_t = decltype(nullptr);
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::intptr_t; using ::uintptr_t;
using ::printf; using ::fprintf; using ::snprintf; using ::sprintf; using ::FILE;
using ::malloc; using ::free; using ::calloc; using ::realloc; using ::abort; using ::exit;
using ::getenv; using ::atoi; using ::strtol; using ::memcpy; using ::memset; using ::memcmp;
using ::memmove; using ::strlen; using ::strcmp; using ::strncmp; using ::strcpy;
using ::sqrt; using ::exp; using ::exp2; using ::log; using ::log2; using ::log10; using ::pow;
using ::fabs; using ::fmax; using ::fmin; using ::fma; using ::floor; using ::ceil; using ::round;
using ::trunc; using ::tanh; using ::sin; using ::cos; using ::tan; using ::atan; using ::atan2;
using ::erf; using ::erfc; using ::log1p; using ::expm1; using ::cbrt; using ::hypot; using ::fmod;
using ::sqrtf; using ::expf; using ::logf; using ::powf; using ::fabsf; using ::tanhf; using ::erff;
using ::fmaxf; using ::fminf; using ::floorf; using ::ceilf; using ::roundf; using ::copysign;
using ::isinf; using ::isnan; using ::isfinite; using ::signbit; using ::lround; using ::ldexp;
using ::time; using ::time_t; using ::clock; using ::rand; using ::srand;
inline float sqrt(float x) { return sqrtf(x); }
inline float exp(float x) { return expf(x); }
inline float log(float x) { return logf(x); }
inline float pow(float a, float b) { return powf(a, b); }
inline float fabs(float x) { return fabsf(x); }
inline float tanh(float x) { return tanhf(x); }
inline float erf(float x) { return erff(x); }
inline float floor(float x) { return floorf(x); }
inline float ceil(float x) { return ceilf(x); }
inline float fmax(float a, float b) { return fmaxf(a, b); }
inline float fmin(float a, float b) { return fminf(a, b); }
inline long abs(long x) { return x < 0 ? -x : x; }
inline long long abs(long long x) { return x < 0 ? -x : x; }
inline float abs(float x) { return fabsf(x); }
inline double abs(double x) { return fabs(x); }
using ::abs;

// <type_traits> / <utility>
template <class T, T v> struct integral_constant {
  static constexpr T value = v;
  using value_type = T;
  using type = integral_constant;
  constexpr operator T() const { return v; }
};
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;
template <bool B> using bool_constant = integral_constant<bool, B>;
template <class T, class U> struct is_same : false_type {};
template <class T> struct is_same<T, T> : true_type {};
template <class T, class U> inline constexpr bool is_same_v = is_same<T, U>::value;
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
template <bool B, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;
template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T &> { using type = T; };
template <class T> struct remove_reference<T &&> { using type = T; };
template <class T> using remove_reference_t = typename remove_reference<T>::type;
template <class T> struct remove_cv { using type = T; };
template <class T> struct remove_cv<const T> { using type = T; };
template <class T> struct remove_cv<volatile T> { using type = T; };
template <class T> struct remove_cv<const volatile T> { using type = T; };
template <class T> using remove_cv_t = typename remove_cv<T>::type;
template <class T> struct remove_const { using type = T; };
template <class T> struct remove_const<const T> { using type = T; };
template <class T> using remove_const_t = typename remove_const<T>::type;
template <class T> struct remove_pointer { using type = T; };
template <class T> struct remove_pointer<T *> { using type = T; };
template <class T> using remove_pointer_t = typename remove_pointer<T>::type;
template <class T> struct remove_cvref { using type = remove_cv_t<remove_reference_t<T>>; };
template <class T> using remove_cvref_t = typename remove_cvref<T>::type;
template <class T> struct decay { using type = remove_cv_t<remove_reference_t<T>>; };
template <class T> using decay_t = typename decay<T>::type;
template <class T> struct add_pointer { using type = remove_reference_t<T> *; };
template <class T> using add_pointer_t = typename add_pointer<T>::type;
template <class T> struct add_const { using type = const T; };
template <class T> struct type_identity { using type = T; };
template <class T> struct is_integral : bool_constant<__is_integral(T)> {};
template <class T> inline constexpr bool is_integral_v = __is_integral(T);
template <class T> struct is_floating_point : bool_constant<__is_floating_point(T)> {};
template <class T> inline constexpr bool is_floating_point_v = __is_floating_point(T);
template <class T> struct is_arithmetic : bool_constant<__is_arithmetic(T)> {};
template <class T> inline constexpr bool is_arithmetic_v = __is_arithmetic(T);
template <class T> struct is_signed : bool_constant<__is_signed(T)> {};
template <class T> struct is_unsigned : bool_constant<__is_unsigned(T)> {};
template <class T> struct is_pointer : bool_constant<__is_pointer(T)> {};
template <class T> inline constexpr bool is_pointer_v = __is_pointer(T);
template <class T> struct is_void : is_same<remove_cv_t<T>, void> {};
template <class T> inline constexpr bool is_void_v = is_void<T>::value;
template <class T> struct is_const : bool_constant<__is_const(T)> {};
template <class T> struct is_trivially_copyable : bool_constant<__is_trivially_copyable(T)> {};
template <class T, class... A> struct is_constructible : bool_constant<__is_constructible(T, A...)> {};
template <class F, class T> struct is_convertible : bool_constant<__is_convertible_to(F, T)> {};
template <class F, class T> inline constexpr bool is_convertible_v = __is_convertible_to(F, T);
template <class B, class D> struct is_base_of : bool_constant<__is_base_of(B, D)> {};
template <class T> struct is_enum : bool_constant<__is_enum(T)> {};
template <class T> struct underlying_type { using type = __underlying_type(T); };
template <class T> using underlying_type_t = typename underlying_type<T>::type;
template <class... T> struct common_type;
template <class T> struct common_type<T> { using type = decay_t<T>; };
template <class T, class U, class... R> struct common_type<T, U, R...> {
  using type = typename common_type<decay_t<decltype(true ? static_cast<T (*)()>(nullptr)() : static_cast<U (*)()>(nullptr)())>, R...>::type;
};
template <class... T> using common_type_t = typename common_type<T...>::type;
template <class... T> using void_t = void;
template <class T> T &&declval() noexcept;
template <class T> struct invoke_result_helper;
// SFINAE-friendly, so overloads taking a callable drop out for non-callables.
template <class Void, class F, class... A> struct kb_invoke {};
template <class F, class... A> struct kb_invoke<decltype(void(declval<F>()(declval<A>()...))), F, A...> {
  using type = decltype(declval<F>()(declval<A>()...));
};
template <class F, class... A> struct invoke_result : kb_invoke<void, F, A...> {};
template <class F, class... A> using invoke_result_t = typename invoke_result<F, A...>::type;
template <class F> struct result_of;
template <class F, class... A> struct result_of<F(A...)> { using type = invoke_result_t<F, A...>; };
template <class T> struct is_lvalue_reference : false_type {};
template <class T> struct is_lvalue_reference<T &> : true_type {};
template <class T> constexpr T &&forward(remove_reference_t<T> &t) noexcept { return static_cast<T &&>(t); }
template <class T> constexpr T &&forward(remove_reference_t<T> &&t) noexcept { return static_cast<T &&>(t); }
template <class T> constexpr remove_reference_t<T> &&move(T &&t) noexcept { return static_cast<remove_reference_t<T> &&>(t); }
template <class T> void swap(T &a, T &b) noexcept { T t = static_cast<T &&>(a); a = static_cast<T &&>(b); b = static_cast<T &&>(t); }
template <class T, class U = T> T exchange(T &obj, U &&v) { T old = static_cast<T &&>(obj); obj = forward<U>(v); return old; }
template <class T> constexpr T *addressof(T &v) noexcept { return __builtin_addressof(v); }
template <class T, T... I> struct integer_sequence {};
template <size_t... I> using index_sequence = integer_sequence<size_t, I...>;
template <size_t N> using make_index_sequence = __make_integer_seq<integer_sequence, size_t, N>;

template <class E> class initializer_list {
  const E *b_;
  size_t n_;
  constexpr initializer_list(const E *b, size_t n) : b_(b), n_(n) {}

public:
  using value_type = E;
  using size_type = size_t;
  using iterator = const E *;
  using const_iterator = const E *;
  constexpr initializer_list() noexcept : b_(nullptr), n_(0) {}
  constexpr size_t size() const noexcept { return n_; }
  constexpr const E *begin() const noexcept { return b_; }
  constexpr const E *end() const noexcept { return b_ + n_; }
};
template <class E> constexpr const E *begin(initializer_list<E> l) noexcept { return l.begin(); }
template <class E> constexpr const E *end(initializer_list<E> l) noexcept { return l.end(); }
template <class C> constexpr auto begin(C &c) -> decltype(c.begin()) { return c.begin(); }
template <class C> constexpr auto end(C &c) -> decltype(c.end()) { return c.end(); }
template <class T, size_t N> constexpr T *begin(T (&a)[N]) noexcept { return a; }
template <class T, size_t N> constexpr T *end(T (&a)[N]) noexcept { return a + N; }
template <class C> constexpr auto size(const C &c) -> decltype(c.size()) { return c.size(); }
template <class T, size_t N> constexpr size_t size(const T (&)[N]) noexcept { return N; }
template <class C> constexpr auto data(C &c) -> decltype(c.data()) { return c.data(); }

// <limits>
enum float_round_style { round_toward_zero = 0, round_to_nearest = 1 };
template <class T> struct numeric_limits {
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = __is_integral(T);
  static constexpr bool has_infinity = !__is_integral(T);
  static constexpr int digits = sizeof(T) * 8;
  static constexpr int digits10 = 6;
  static constexpr T min() noexcept { return T(); }
  static constexpr T max() noexcept { return T(); }
  static constexpr T lowest() noexcept { return T(); }
  static constexpr T epsilon() noexcept { return T(); }
  static constexpr T infinity() noexcept { return T(); }
  static constexpr T quiet_NaN() noexcept { return T(); }
  static constexpr T signaling_NaN() noexcept { return T(); }
  static constexpr T denorm_min() noexcept { return T(); }
};

// <utility> / <tuple>
template <class A, class B> struct pair {
  A first;
  B second;
  constexpr pair() : first(), second() {}
  constexpr pair(const A &a, const B &b) : first(a), second(b) {}
  template <class U, class V> constexpr pair(U &&a, V &&b) : first(forward<U>(a)), second(forward<V>(b)) {}
  template <class U, class V> constexpr pair(const pair<U, V> &p) : first(p.first), second(p.second) {}
};
template <class A, class B> pair<decay_t<A>, decay_t<B>> make_pair(A &&a, B &&b);
template <class A, class B> bool operator==(const pair<A, B> &, const pair<A, B> &);
template <class A, class B> bool operator<(const pair<A, B> &, const pair<A, B> &);
template <class... T> class tuple {
public:
  constexpr tuple() {}
  template <class... U> constexpr tuple(U &&...) {}
  template <class... U> tuple &operator=(const tuple<U...> &);
};
template <class T> struct tuple_size;
template <class... T> struct tuple_size<tuple<T...>> : integral_constant<size_t, sizeof...(T)> {};
template <class A, class B> struct tuple_size<pair<A, B>> : integral_constant<size_t, 2> {};
template <size_t I, class T> struct tuple_element;
template <size_t I, class... T> struct tuple_element<I, tuple<T...>> { using type = __type_pack_element<I, T...>; };
template <size_t I, class A, class B> struct tuple_element<I, pair<A, B>> { using type = __type_pack_element<I, A, B>; };
template <size_t I, class T> using tuple_element_t = typename tuple_element<I, T>::type;
template <class T> inline constexpr size_t tuple_size_v = tuple_size<T>::value;
template <size_t I, class... T> __type_pack_element<I, T...> &get(tuple<T...> &);
template <size_t I, class... T> const __type_pack_element<I, T...> &get(const tuple<T...> &);
template <size_t I, class... T> __type_pack_element<I, T...> &&get(tuple<T...> &&);
template <size_t I, class A, class B> __type_pack_element<I, A, B> &get(pair<A, B> &);
template <size_t I, class A, class B> const __type_pack_element<I, A, B> &get(const pair<A, B> &);
template <size_t I, class A, class B> __type_pack_element<I, A, B> &&get(pair<A, B> &&);
template <class... T> tuple<decay_t<T>...> make_tuple(T &&...);
template <class... T, class... U> bool operator==(const tuple<T...> &, const tuple<U...> &);
template <class... T, class... U> bool operator!=(const tuple<T...> &, const tuple<U...> &);
template <class... T, class... U> bool operator<(const tuple<T...> &, const tuple<U...> &);
template <class... T> tuple<T &...> tie(T &...);
template <class... T> tuple<T &&...> forward_as_tuple(T &&...);
struct ignore_t { template <class T> const ignore_t &operator=(const T &) const { return *this; } };
inline constexpr ignore_t ignore{};
struct in_place_t {};
inline constexpr in_place_t in_place{};
template <class F, class T> decltype(auto) apply(F &&f, T &&t);

// <functional>
template <class T> struct hash { size_t operator()(const T &) const; };
template <class T = void> struct less { constexpr bool operator()(const T &a, const T &b) const { return a < b; } };
template <class T = void> struct greater { constexpr bool operator()(const T &a, const T &b) const { return a > b; } };
template <class T = void> struct equal_to { constexpr bool operator()(const T &a, const T &b) const { return a == b; } };
template <class T = void> struct plus { constexpr T operator()(const T &a, const T &b) const { return a + b; } };
template <class T = void> struct multiplies { constexpr T operator()(const T &a, const T &b) const { return a * b; } };
template <class T = void> struct minus { constexpr T operator()(const T &a, const T &b) const { return a - b; } };
template <class Sig> class function;
template <class R, class... A> class function<R(A...)> {
public:
  function();
  function(decltype(nullptr));
  template <class F> function(F) {}
  R operator()(A...) const;
  explicit operator bool() const;
};
template <class T> struct reference_wrapper { T &get() const; operator T &() const; };
template <class T> reference_wrapper<T> ref(T &);
template <class T> reference_wrapper<const T> cref(const T &);
template <class F, class... A> auto bind(F &&, A &&...) -> function<void()>;
template <class F, class... A> invoke_result_t<F, A...> invoke(F &&, A &&...);
namespace placeholders { struct ph {}; extern ph _1, _2, _3; }

// <string> / <string_view>
class string_view;
class string {
public:
  using size_type = size_t;
  using value_type = char;
  using iterator = char *;
  using const_iterator = const char *;
  static constexpr size_t npos = static_cast<size_t>(-1);
  string();
  string(const char *);
  string(const char *, size_t);
  string(size_t, char);
  string(const string &);
  string(string &&);
  string(const string_view &);
  template <class It> string(It, It);
  string &operator=(const string &);
  string &operator=(const char *);
  size_t size() const;
  size_t length() const;
  bool empty() const;
  const char *c_str() const;
  const char *data() const;
  char *data();
  char &operator[](size_t);
  const char &operator[](size_t) const;
  char &at(size_t);
  char &back();
  char &front();
  char *begin();
  char *end();
  const char *begin() const;
  const char *end() const;
  string substr(size_t = 0, size_t = npos) const;
  size_t find(const string &, size_t = 0) const;
  size_t find(const char *, size_t = 0) const;
  size_t find(char, size_t = 0) const;
  size_t rfind(const string &, size_t = npos) const;
  size_t rfind(char, size_t = npos) const;
  size_t find_first_of(const char *, size_t = 0) const;
  size_t find_last_of(const char *, size_t = npos) const;
  int compare(const string &) const;
  string &append(const string &);
  string &append(const char *);
  string &append(size_t, char);
  void push_back(char);
  void pop_back();
  void clear();
  void reserve(size_t);
  void resize(size_t, char = 0);
  string &insert(size_t, const string &);
  string &erase(size_t = 0, size_t = npos);
  string &replace(size_t, size_t, const string &);
  string &operator+=(const string &);
  string &operator+=(const char *);
  string &operator+=(char);
};
string operator+(const string &, const string &);
string operator+(const string &, const char *);
string operator+(const char *, const string &);
string operator+(const string &, char);
string operator+(char, const string &);
bool operator==(const string &, const string &);
bool operator==(const string &, const char *);
bool operator==(const char *, const string &);
bool operator!=(const string &, const string &);
bool operator!=(const string &, const char *);
bool operator<(const string &, const string &);
class string_view {
public:
  static constexpr size_t npos = static_cast<size_t>(-1);
  constexpr string_view() : p_(nullptr), n_(0) {}
  constexpr string_view(const char *p) : p_(p), n_(__builtin_strlen(p)) {}
  constexpr string_view(const char *p, size_t n) : p_(p), n_(n) {}
  string_view(const string &);
  constexpr size_t size() const { return n_; }
  constexpr size_t length() const { return n_; }
  constexpr bool empty() const { return n_ == 0; }
  constexpr const char *data() const { return p_; }
  constexpr char operator[](size_t i) const { return p_[i]; }
  constexpr const char *begin() const { return p_; }
  constexpr const char *end() const { return p_ + n_; }
  string_view substr(size_t = 0, size_t = npos) const;
  size_t find(string_view, size_t = 0) const;
  size_t find(char, size_t = 0) const;
  bool starts_with(string_view) const;
  bool ends_with(string_view) const;

private:
  const char *p_;
  size_t n_;
};
bool operator==(string_view, string_view);
bool operator!=(string_view, string_view);
string to_string(int);
string to_string(long);
string to_string(long long);
string to_string(unsigned);
string to_string(unsigned long);
string to_string(unsigned long long);
string to_string(float);
string to_string(double);
int stoi(const string &, size_t * = nullptr, int = 10);
long stol(const string &, size_t * = nullptr, int = 10);
long long stoll(const string &, size_t * = nullptr, int = 10);
float stof(const string &, size_t * = nullptr);
double stod(const string &, size_t * = nullptr);
template <> struct hash<string> { size_t operator()(const string &) const; };

// <iostream> / <sstream>
class ostream {
public:
  template <class T> ostream &operator<<(const T &);
  ostream &operator<<(ostream &(*)(ostream &));
  ostream &flush();
  ostream &write(const char *, long);
  void precision(int);
};
class istream {
public:
  template <class T> istream &operator>>(T &);
  istream &read(char *, long);
};
ostream &endl(ostream &);
ostream &flush(ostream &);
extern ostream cout;
extern ostream cerr;
extern ostream clog;
extern istream cin;
class ostringstream : public ostream { public: ostringstream(); string str() const; void str(const string &); };
class stringstream : public ostream, public istream { public: stringstream(); stringstream(const string &); string str() const; };
class istringstream : public istream { public: istringstream(const string &); };
class ifstream : public istream { public: ifstream(); ifstream(const string &, int = 0); bool is_open() const; void close(); };
class ofstream : public ostream { public: ofstream(); ofstream(const string &, int = 0); bool is_open() const; void close(); };
struct ios { enum openmode { in = 1, out = 2, binary = 4, app = 8 }; };
struct ios_base { enum openmode { in = 1, out = 2, binary = 4, app = 8 }; };
template <class T> struct setw_t {};
setw_t<int> setw(int);
setw_t<int> setprecision(int);
ostream &fixed(ostream &);
ostream &scientific(ostream &);
ostream &hex(ostream &);
ostream &dec(ostream &);
template <class T> ostream &operator<<(ostream &, setw_t<T>);

// <exception> / <stdexcept>
class exception {
public:
  exception() noexcept;
  virtual ~exception();
  virtual const char *what() const noexcept;
};
class runtime_error : public exception { public: explicit runtime_error(const string &); explicit runtime_error(const char *); };
class logic_error : public exception { public: explicit logic_error(const string &); explicit logic_error(const char *); };
class invalid_argument : public logic_error { public: using logic_error::logic_error; };
class out_of_range : public logic_error { public: using logic_error::logic_error; };
class length_error : public logic_error { public: using logic_error::logic_error; };
class domain_error : public logic_error { public: using logic_error::logic_error; };
class overflow_error : public runtime_error { public: using runtime_error::runtime_error; };
class bad_alloc : public exception {};
class exception_ptr {};
exception_ptr current_exception() noexcept;
[[noreturn]] void rethrow_exception(exception_ptr);

// <iterator>
struct input_iterator_tag {};
struct forward_iterator_tag : input_iterator_tag {};
struct random_access_iterator_tag : forward_iterator_tag {};
template <class It> struct iterator_traits { using value_type = typename It::value_type; using difference_type = ptrdiff_t; };
template <class T> struct iterator_traits<T *> { using value_type = T; using difference_type = ptrdiff_t; using pointer = T *; using reference = T &; };
template <class It> It next(It, ptrdiff_t = 1);
template <class It> It prev(It, ptrdiff_t = 1);
template <class It> ptrdiff_t distance(It, It);
template <class It> void advance(It &, ptrdiff_t);
template <class C> struct back_insert_iterator { back_insert_iterator &operator*(); back_insert_iterator &operator++(); template <class T> back_insert_iterator &operator=(T &&); };
template <class C> back_insert_iterator<C> back_inserter(C &);

// Containers: one permissive iterator serves them all.
template <class T> struct kb_iterator {
  using value_type = T;
  using difference_type = ptrdiff_t;
  using pointer = T *;
  using reference = T &;
  using iterator_category = random_access_iterator_tag;
  T &operator*() const;
  T *operator->() const;
  kb_iterator &operator++();
  kb_iterator operator++(int);
  kb_iterator &operator--();
  kb_iterator operator+(ptrdiff_t) const;
  kb_iterator operator-(ptrdiff_t) const;
  ptrdiff_t operator-(const kb_iterator &) const;
  kb_iterator &operator+=(ptrdiff_t);
  T &operator[](ptrdiff_t) const;
  bool operator==(const kb_iterator &) const;
  bool operator!=(const kb_iterator &) const;
  bool operator<(const kb_iterator &) const;
  operator kb_iterator<const T>() const;
};
template <class T> class allocator { public: using value_type = T; T *allocate(size_t); void deallocate(T *, size_t); };

template <class T, class A = allocator<T>> class vector {
public:
  using value_type = T;
  using size_type = size_t;
  using reference = T &;
  using const_reference = const T &;
  using iterator = kb_iterator<T>;
  using const_iterator = kb_iterator<const T>;
  vector();
  explicit vector(size_t);
  vector(size_t, const T &);
  vector(initializer_list<T>);
  vector(const vector &);
  vector(vector &&);
  template <class It, class = decltype(*declval<It &>())> vector(It, It);
  vector &operator=(const vector &);
  vector &operator=(vector &&);
  vector &operator=(initializer_list<T>);
  size_t size() const;
  bool empty() const;
  size_t capacity() const;
  T *data();
  const T *data() const;
  T &operator[](size_t);
  const T &operator[](size_t) const;
  T &at(size_t);
  const T &at(size_t) const;
  T &front();
  T &back();
  const T &front() const;
  const T &back() const;
  iterator begin();
  iterator end();
  const_iterator begin() const;
  const_iterator end() const;
  const_iterator cbegin() const;
  const_iterator cend() const;
  void push_back(const T &);
  void push_back(T &&);
  template <class... Args> T &emplace_back(Args &&...);
  void pop_back();
  void reserve(size_t);
  void resize(size_t);
  void resize(size_t, const T &);
  void clear();
  void assign(size_t, const T &);
  template <class... Args> iterator insert(Args &&...);
  template <class... Args> iterator emplace(Args &&...);
  iterator erase(const_iterator);
  iterator erase(const_iterator, const_iterator);
  void swap(vector &);
};
template <class T, class A> bool operator==(const vector<T, A> &, const vector<T, A> &);
template <class T, class A> bool operator!=(const vector<T, A> &, const vector<T, A> &);
template <class T, size_t N> struct array {
  T elems_[N ? N : 1];
  using value_type = T;
  using iterator = T *;
  using const_iterator = const T *;
  constexpr T &operator[](size_t i) { return elems_[i]; }
  constexpr const T &operator[](size_t i) const { return elems_[i]; }
  constexpr T &at(size_t i) { return elems_[i]; }
  constexpr T *data() { return elems_; }
  constexpr const T *data() const { return elems_; }
  constexpr size_t size() const { return N; }
  constexpr bool empty() const { return N == 0; }
  constexpr T *begin() { return elems_; }
  constexpr T *end() { return elems_ + N; }
  constexpr const T *begin() const { return elems_; }
  constexpr const T *end() const { return elems_ + N; }
  constexpr T &front() { return elems_[0]; }
  constexpr T &back() { return elems_[N - 1]; }
  void fill(const T &);
};
template <class T, class A = allocator<T>> class deque : public vector<T, A> {
public:
  using vector<T, A>::vector;
  void push_front(const T &);
  void pop_front();
  template <class... Args> T &emplace_front(Args &&...);
};
template <class T, class A = allocator<T>> class list : public deque<T, A> { public: using deque<T, A>::deque; };
template <class T, class C = deque<T>> class queue {
public:
  void push(const T &); template <class... A> void emplace(A &&...); void pop(); T &front(); T &back(); bool empty() const; size_t size() const;
};
template <class T, class C = deque<T>> class stack {
public:
  void push(const T &); template <class... A> void emplace(A &&...); void pop(); T &top(); bool empty() const; size_t size() const;
};
template <class T, class C = vector<T>, class Cmp = less<T>> class priority_queue {
public:
  void push(const T &); template <class... A> void emplace(A &&...); void pop(); const T &top() const; bool empty() const; size_t size() const;
};

template <class K, class V> class kb_map_base {
public:
  using key_type = K;
  using mapped_type = V;
  using value_type = pair<const K, V>;
  using iterator = kb_iterator<value_type>;
  using const_iterator = kb_iterator<const value_type>;
  kb_map_base();
  kb_map_base(initializer_list<value_type>);
  V &operator[](const K &);
  V &operator[](K &&);
  V &at(const K &);
  const V &at(const K &) const;
  iterator find(const K &);
  const_iterator find(const K &) const;
  size_t count(const K &) const;
  bool contains(const K &) const;
  iterator begin();
  iterator end();
  const_iterator begin() const;
  const_iterator end() const;
  size_t size() const;
  bool empty() const;
  void clear();
  size_t erase(const K &);
  iterator erase(const_iterator);
  pair<iterator, bool> insert(const value_type &);
  template <class P> pair<iterator, bool> insert(P &&);
  template <class... A> pair<iterator, bool> emplace(A &&...);
  template <class... A> pair<iterator, bool> try_emplace(const K &, A &&...);
  template <class M> pair<iterator, bool> insert_or_assign(const K &, M &&);
  void reserve(size_t);
};
template <class K, class V, class H = hash<K>, class E = equal_to<K>, class A = allocator<pair<const K, V>>>
class unordered_map : public kb_map_base<K, V> { public: using kb_map_base<K, V>::kb_map_base; };
template <class K, class V, class C = less<K>, class A = allocator<pair<const K, V>>>
class map : public kb_map_base<K, V> { public: using kb_map_base<K, V>::kb_map_base; };
template <class K, class V, class C = less<K>, class A = allocator<pair<const K, V>>>
class multimap : public kb_map_base<K, V> { public: using kb_map_base<K, V>::kb_map_base; };
template <class K> class kb_set_base {
public:
  using key_type = K;
  using value_type = K;
  using iterator = kb_iterator<const K>;
  using const_iterator = kb_iterator<const K>;
  kb_set_base();
  kb_set_base(initializer_list<K>);
  iterator find(const K &) const;
  size_t count(const K &) const;
  bool contains(const K &) const;
  iterator begin() const;
  iterator end() const;
  size_t size() const;
  bool empty() const;
  void clear();
  size_t erase(const K &);
  pair<iterator, bool> insert(const K &);
  template <class... A> pair<iterator, bool> emplace(A &&...);
};
template <class K, class H = hash<K>, class E = equal_to<K>, class A = allocator<K>>
class unordered_set : public kb_set_base<K> { public: using kb_set_base<K>::kb_set_base; };
template <class K, class C = less<K>, class A = allocator<K>>
class set : public kb_set_base<K> { public: using kb_set_base<K>::kb_set_base; };

// <optional> / <variant> / <any>
struct nullopt_t { explicit constexpr nullopt_t(int) {} };
inline constexpr nullopt_t nullopt{0};
template <class T> class optional {
public:
  using value_type = T;
  constexpr optional() {}
  constexpr optional(nullopt_t) {}
  template <class U = T> constexpr optional(U &&) {}
  optional &operator=(nullopt_t);
  template <class U = T> optional &operator=(U &&);
  constexpr bool has_value() const;
  constexpr explicit operator bool() const;
  constexpr T &value();
  constexpr const T &value() const;
  template <class U> constexpr T value_or(U &&) const;
  constexpr T &operator*();
  constexpr const T &operator*() const;
  constexpr T *operator->();
  constexpr const T *operator->() const;
  template <class... A> T &emplace(A &&...);
  void reset();
};
template <class T> optional<decay_t<T>> make_optional(T &&);
template <class... T> class variant { public: variant(); template <class U> variant(U &&); size_t index() const; };
template <class T, class... V> T &get(variant<V...> &);
template <class T, class... V> bool holds_alternative(const variant<V...> &);
class any { public: any(); template <class T> any(T &&); bool has_value() const; };
template <class T> T any_cast(const any &);

// <memory>
template <class T> struct default_delete { void operator()(T *) const; };
template <class T, class D = default_delete<T>> class unique_ptr {
public:
  constexpr unique_ptr() noexcept {}
  constexpr unique_ptr(decltype(nullptr)) noexcept {}
  explicit unique_ptr(T *) noexcept;
  unique_ptr(T *, D) noexcept;
  template <class U, class E> unique_ptr(unique_ptr<U, E> &&) noexcept;
  unique_ptr(unique_ptr &&) noexcept;
  unique_ptr &operator=(unique_ptr &&) noexcept;
  unique_ptr &operator=(decltype(nullptr)) noexcept;
  T *get() const noexcept;
  T *release() noexcept;
  void reset(T * = nullptr) noexcept;
  T &operator*() const;
  T *operator->() const noexcept;
  explicit operator bool() const noexcept;
};
template <class T, class D> class unique_ptr<T[], D> {
public:
  constexpr unique_ptr() noexcept {}
  explicit unique_ptr(T *) noexcept;
  T *get() const noexcept;
  void reset(T * = nullptr) noexcept;
  T &operator[](size_t) const;
  explicit operator bool() const noexcept;
};
template <class T> class shared_ptr {
public:
  using element_type = T;
  constexpr shared_ptr() noexcept {}
  constexpr shared_ptr(decltype(nullptr)) noexcept {}
  template <class U> explicit shared_ptr(U *);
  template <class U, class D> shared_ptr(U *, D);
  shared_ptr(const shared_ptr &) noexcept;
  template <class U> shared_ptr(const shared_ptr<U> &) noexcept;
  template <class U, class D> shared_ptr(unique_ptr<U, D> &&);
  shared_ptr &operator=(const shared_ptr &) noexcept;
  T *get() const noexcept;
  void reset() noexcept;
  template <class U> void reset(U *);
  T &operator*() const noexcept;
  T *operator->() const noexcept;
  long use_count() const noexcept;
  explicit operator bool() const noexcept;
};
template <class T> class weak_ptr { public: weak_ptr(); weak_ptr(const shared_ptr<T> &); shared_ptr<T> lock() const; bool expired() const; };
template <class T, class U> bool operator==(const shared_ptr<T> &, const shared_ptr<U> &);
template <class T> bool operator==(const shared_ptr<T> &, decltype(nullptr));
template <class T> bool operator!=(const shared_ptr<T> &, decltype(nullptr));
template <class T> struct kb_unique_if { using single = unique_ptr<T>; };
template <class T> struct kb_unique_if<T[]> { using array = unique_ptr<T[]>; };
template <class T, class... A> typename kb_unique_if<T>::single make_unique(A &&...);
template <class T> typename kb_unique_if<T>::array make_unique(size_t);
template <class T, class... A> shared_ptr<T> make_shared(A &&...);
template <class T, class U> shared_ptr<T> static_pointer_cast(const shared_ptr<U> &);
template <class T, class U> shared_ptr<T> dynamic_pointer_cast(const shared_ptr<U> &);
template <class T> class enable_shared_from_this { public: shared_ptr<T> shared_from_this(); };

// <algorithm> / <numeric>
template <class T> constexpr const T &min(const T &a, const T &b) { return b < a ? b : a; }
template <class T> constexpr const T &max(const T &a, const T &b) { return a < b ? b : a; }
template <class T, class C> constexpr const T &min(const T &a, const T &b, C c) { return c(b, a) ? b : a; }
template <class T, class C> constexpr const T &max(const T &a, const T &b, C c) { return c(a, b) ? b : a; }
template <class T> constexpr T min(initializer_list<T>);
template <class T> constexpr T max(initializer_list<T>);
template <class T> constexpr const T &clamp(const T &v, const T &lo, const T &hi) { return v < lo ? lo : hi < v ? hi : v; }
template <class It, class... R> void sort(It, It, R &&...);
template <class It, class... R> void stable_sort(It, It, R &&...);
template <class It, class... R> void partial_sort(It, It, It, R &&...);
template <class It, class... R> void nth_element(It, It, It, R &&...);
template <class It, class T> void fill(It, It, const T &);
template <class It, class N, class T> It fill_n(It, N, const T &);
template <class It, class O> O copy(It, It, O);
template <class It, class N, class O> O copy_n(It, N, O);
template <class It, class O, class F> O transform(It, It, O, F);
template <class It, class It2, class O, class F> O transform(It, It, It2, O, F);
template <class It, class F> F for_each(It, It, F);
template <class It, class T> It find(It, It, const T &);
template <class It, class P> It find_if(It, It, P);
template <class It, class T> ptrdiff_t count(It, It, const T &);
template <class It, class P> ptrdiff_t count_if(It, It, P);
template <class It, class P> bool all_of(It, It, P);
template <class It, class P> bool any_of(It, It, P);
template <class It, class P> bool none_of(It, It, P);
template <class It, class... R> It min_element(It, It, R &&...);
template <class It, class... R> It max_element(It, It, R &&...);
template <class It, class T, class... R> It lower_bound(It, It, const T &, R &&...);
template <class It, class T, class... R> It upper_bound(It, It, const T &, R &&...);
template <class It, class T, class... R> bool binary_search(It, It, const T &, R &&...);
template <class It> void reverse(It, It);
template <class It> It unique(It, It);
template <class It, class P> It remove_if(It, It, P);
template <class It, class T> It remove(It, It, const T &);
template <class It, class It2> bool equal(It, It, It2);
template <class It, class T> T accumulate(It, It, T);
template <class It, class T, class F> T accumulate(It, It, T, F);
template <class It, class T> void iota(It, It, T);
template <class It, class O> O partial_sum(It, It, O);
template <class It, class It2, class T> T inner_product(It, It, It2, T);
template <class T> constexpr T gcd(T, T);
template <class T> constexpr T lcm(T, T);

// <thread> / <mutex> / <atomic> / <future> / <condition_variable> / <chrono>
namespace chrono {
template <class R, class P = void> struct duration {
  constexpr duration() = default;
  template <class R2> constexpr duration(const R2 &) {}
  template <class R2, class P2> constexpr duration(const duration<R2, P2> &) {}
  R count() const;
};
using nanoseconds = duration<long, struct nano_tag>;
using microseconds = duration<long, struct micro_tag>;
using milliseconds = duration<long, struct milli_tag>;
using seconds = duration<long>;
template <class C> struct time_point {
  template <class D> time_point operator+(D) const;
  duration<double> operator-(const time_point &) const;
  duration<long> time_since_epoch() const;
};
struct steady_clock { static time_point<steady_clock> now(); using time_point = chrono::time_point<steady_clock>; };
struct system_clock { static time_point<system_clock> now(); using time_point = chrono::time_point<system_clock>; };
using high_resolution_clock = steady_clock;
template <class To, class R, class P> To duration_cast(const duration<R, P> &);
} // namespace chrono
class thread {
public:
  class id { public: bool operator==(const id &) const; };
  thread() noexcept;
  template <class F, class... A> explicit thread(F &&, A &&...) {}
  thread(thread &&) noexcept;
  thread &operator=(thread &&) noexcept;
  ~thread();
  void join();
  void detach();
  bool joinable() const noexcept;
  id get_id() const noexcept;
  static unsigned hardware_concurrency() noexcept;
};
class jthread {
public:
  jthread() noexcept;
  template <class F, class... A> explicit jthread(F &&, A &&...) {}
  void join();
  void detach();
  bool joinable() const noexcept;
};
namespace this_thread {
thread::id get_id() noexcept;
template <class D> void sleep_for(const D &);
void yield() noexcept;
} // namespace this_thread
class mutex { public: mutex(); void lock(); void unlock(); bool try_lock(); };
class recursive_mutex { public: recursive_mutex(); void lock(); void unlock(); };
class shared_mutex { public: shared_mutex(); void lock(); void unlock(); void lock_shared(); void unlock_shared(); };
template <class M> class lock_guard { public: explicit lock_guard(M &); ~lock_guard(); };
template <class M> class unique_lock { public: unique_lock(); explicit unique_lock(M &); void lock(); void unlock(); ~unique_lock(); };
template <class M> class shared_lock { public: explicit shared_lock(M &); };
template <class... M> class scoped_lock { public: explicit scoped_lock(M &...); };
struct once_flag { constexpr once_flag() noexcept {} };
template <class F, class... A> void call_once(once_flag &, F &&, A &&...);
class condition_variable {
public:
  void notify_one() noexcept;
  void notify_all() noexcept;
  template <class L> void wait(L &);
  template <class L, class P> void wait(L &, P);
};
enum memory_order { memory_order_relaxed, memory_order_consume, memory_order_acquire, memory_order_release, memory_order_acq_rel, memory_order_seq_cst };
template <class T> struct atomic {
  constexpr atomic() noexcept : v_() {}
  constexpr atomic(T v) noexcept : v_(v) {}
  T load(memory_order = memory_order_seq_cst) const noexcept;
  void store(T, memory_order = memory_order_seq_cst) noexcept;
  T exchange(T, memory_order = memory_order_seq_cst) noexcept;
  bool compare_exchange_strong(T &, T, memory_order = memory_order_seq_cst) noexcept;
  bool compare_exchange_weak(T &, T, memory_order = memory_order_seq_cst) noexcept;
  T fetch_add(T, memory_order = memory_order_seq_cst) noexcept;
  T fetch_sub(T, memory_order = memory_order_seq_cst) noexcept;
  operator T() const noexcept;
  T operator=(T) noexcept;
  T operator++() noexcept;
  T operator++(int) noexcept;
  T operator--() noexcept;
  T operator--(int) noexcept;
  T operator+=(T) noexcept;
  T v_;
};
using atomic_int = atomic<int>;
using atomic_bool = atomic<bool>;
using atomic_size_t = atomic<size_t>;
struct atomic_flag { bool test_and_set() noexcept; void clear() noexcept; };
enum class launch { async = 1, deferred = 2 };
template <class T> class future { public: future(); T get(); void wait() const; bool valid() const; };
template <class T> class shared_future { public: T get() const; void wait() const; };
template <class T> class promise { public: promise(); future<T> get_future(); void set_value(const T &); };
template <> class promise<void> { public: promise(); future<void> get_future(); void set_value(); };
template <class F, class... A> future<invoke_result_t<decay_t<F>, decay_t<A>...>> async(F &&, A &&...);
template <class F, class... A> future<invoke_result_t<decay_t<F>, decay_t<A>...>> async(launch, F &&, A &&...);

// <random>
class mt19937 { public: mt19937(); explicit mt19937(unsigned); unsigned operator()(); };
using mt19937_64 = mt19937;
class random_device { public: random_device(); unsigned operator()(); };
using default_random_engine = mt19937;
template <class T = double> class uniform_real_distribution { public: uniform_real_distribution(T = 0, T = 1); template <class G> T operator()(G &); };
template <class T = int> class uniform_int_distribution { public: uniform_int_distribution(T = 0, T = 0); template <class G> T operator()(G &); };
template <class T = double> class normal_distribution { public: normal_distribution(T = 0, T = 1); template <class G> T operator()(G &); };

// <complex> / <bit> / <typeinfo> / misc
template <class T> struct complex { complex(T = T(), T = T()); T real() const; T imag() const; };
template <class To, class From> To bit_cast(const From &f) noexcept { return __builtin_bit_cast(To, f); }
class type_info { public: const char *name() const noexcept; bool operator==(const type_info &) const noexcept; };
template <class T> T *launder(T *p) noexcept { return p; }
[[noreturn]] void terminate() noexcept;
using ::errno;
} // namespace std

#ifdef __CUDA__
#pragma clang force_cuda_host_device end
#endif
